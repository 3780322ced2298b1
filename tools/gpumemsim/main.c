/* gpumemsim command line (placeholder until the sim layer lands). */
#include <stdio.h>
int main(void)
{
    fprintf(stderr, "gpumemsim: no commands yet\n");
    return 2;
}
