// Breadth-first search, one level per pair of launches (in the style of Rodinia's BFS):
// bfs_expand visits the neighbours of every frontier node and marks unvisited ones for the next
// level; bfs_update turns the marks into the new frontier and records that level `level` made
// progress. bfs_init seeds the search from one source node. Costs are levels (-1: unreached).
__global__ void bfs_init(int num_nodes, int source, unsigned char *frontier,
                         unsigned char *visited, int *cost)
{
    int node = blockIdx.x * blockDim.x + threadIdx.x;
    if (node < num_nodes) {
        frontier[node] = node == source;
        visited[node] = node == source;
        cost[node] = node == source ? 0 : -1;
    }
}

__global__ void bfs_expand(int num_nodes, const int *__restrict__ row_offsets,
                           const int *__restrict__ edges, unsigned char *frontier,
                           unsigned char *next, const unsigned char *visited, int *cost)
{
    int node = blockIdx.x * blockDim.x + threadIdx.x;
    if (node >= num_nodes || !frontier[node])
        return;
    frontier[node] = 0;
    int next_cost = cost[node] + 1;
    for (int e = row_offsets[node]; e < row_offsets[node + 1]; ++e) {
        int neighbour = edges[e];
        if (!visited[neighbour]) {
            cost[neighbour] = next_cost;
            next[neighbour] = 1;
        }
    }
}

__global__ void bfs_update(int num_nodes, int level, unsigned char *frontier,
                           unsigned char *next, unsigned char *visited, int *progress)
{
    int node = blockIdx.x * blockDim.x + threadIdx.x;
    if (node < num_nodes && next[node]) {
        frontier[node] = 1;
        visited[node] = 1;
        next[node] = 0;
        progress[level] = 1;
    }
}
