# gnuplot script written by gpumemsim sweep; redraw with `gnuplot l2_hit_rate.gp` in this folder
set terminal svg size 800,500 dynamic noenhanced background rgb 'white'
set output 'l2_hit_rate.svg'
set title 'l2.hit_rate against config.l2.size_bytes'
set xlabel 'config.l2.size_bytes'
set ylabel 'l2.hit_rate'
set grid
set key outside right top
set logscale x 2
plot 'l2_hit_rate.dat' index 0 using 1:2 with linespoints title 'launch=0', \
     'l2_hit_rate.dat' index 1 using 1:2 with linespoints title 'launch=1'
