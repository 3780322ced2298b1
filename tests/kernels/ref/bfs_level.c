/* Reference for bfs_level. Generates an undirected graph of 1024 nodes as CSR
 * (row_offsets/edges.in.bin): nodes 0..999 form a sparse random graph plus a 10-node tail chain
 * that lengthens the search; nodes 1000..1023 form a separate ring that the search never reaches.
 * Then runs the same level-synchronous search for as many levels as the launch file has
 * expand/update pairs, giving costs, visited flags, the final frontier and per-level progress. */
#include "ref_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODES 1024
#define MAX_EDGES 16384

static int32_t edge_from[MAX_EDGES], edge_to[MAX_EDGES];
static int edge_count;

static void add_undirected(int a, int b)
{
    ref_require(edge_count + 2 <= MAX_EDGES, "edge capacity");
    edge_from[edge_count] = a, edge_to[edge_count++] = b;
    edge_from[edge_count] = b, edge_to[edge_count++] = a;
}

static void build_graph(int32_t *row_offsets, int32_t *edges)
{
    uint64_t state = 1101;
    for (int node = 1; node < 990; ++node) /* a random tree keeps 0..989 connected */
        add_undirected(node, (int)ref_random_int(&state, 0, node - 1) / 2);
    for (int k = 0; k < 600; ++k) /* extra random shortcuts */
        add_undirected((int)ref_random_int(&state, 0, 989), (int)ref_random_int(&state, 0, 989));
    for (int node = 990; node < 1000; ++node) /* tail chain hanging off node 989 */
        add_undirected(node - 1, node);
    for (int node = 1000; node < NODES; ++node) /* unreachable ring */
        add_undirected(node, node + 1 < NODES ? node + 1 : 1000);
    int32_t next = 0;
    for (int node = 0; node < NODES; ++node) { /* counting sort by source, stable */
        row_offsets[node] = next;
        for (int e = 0; e < edge_count; ++e)
            if (edge_from[e] == node)
                edges[next++] = edge_to[e];
    }
    row_offsets[NODES] = next;
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: bfs_level LAUNCH.json");
    static int32_t row_offsets[NODES + 1], edges[MAX_EDGES];
    build_graph(row_offsets, edges);
    ref_write_file("row_offsets.in.bin", row_offsets, sizeof row_offsets);
    ref_write_file("edges.in.bin", edges, (size_t)edge_count * sizeof *edges);
    fprintf(stderr, "bfs_level: %d directed edges\n", edge_count);

    ref_open(argv[1]);
    size_t levels = (ref_launch_count() - 1) / 2;
    int source = (int)ref_arg_int(0, 1);
    int32_t *ro = ref_input("row_offsets", "i32", NODES + 1);
    int32_t *ed = ref_input("edges", "i32", (size_t)edge_count);
    unsigned char *frontier = ref_input("frontier", "u8", NODES);
    unsigned char *visited = ref_input("visited", "u8", NODES);
    int32_t *cost = ref_input("cost", "i32", NODES);
    int32_t *progress = ref_input("progress", "i32", levels);
    unsigned char next[NODES];
    for (int node = 0; node < NODES; ++node) {
        frontier[node] = visited[node] = node == source;
        cost[node] = node == source ? 0 : -1;
    }
    for (size_t level = 0; level < levels; ++level) {
        ref_require(ref_arg_int(2 + 2 * level, 1) == (int64_t)level, "update launch level");
        memset(next, 0, sizeof next);
        for (int node = 0; node < NODES; ++node) {
            if (!frontier[node])
                continue;
            frontier[node] = 0;
            for (int e = ro[node]; e < ro[node + 1]; ++e)
                if (!visited[ed[e]]) {
                    cost[ed[e]] = cost[node] + 1;
                    next[ed[e]] = 1;
                }
        }
        for (int node = 0; node < NODES; ++node)
            if (next[node]) {
                frontier[node] = visited[node] = 1;
                progress[level] = 1;
            }
    }
    ref_require(progress[levels - 1] == 0 && progress[levels - 2] == 1,
                "the search must finish exactly one level before the last launch pair");
    ref_write_expected("cost", cost, NODES * sizeof *cost);
    ref_write_expected("visited", visited, NODES);
    ref_write_expected("frontier", frontier, NODES);
    ref_write_expected("progress", progress, levels * sizeof *progress);
    free(ro), free(ed), free(frontier), free(visited), free(cost), free(progress);
    return 0;
}
