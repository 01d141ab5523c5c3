package io.spindle.bench.workload;

/** A node of a balanced binary tree (Spice's tree-sum benchmark): leaves have no children, inner nodes two. */
final class Tree {
    final long value;
    final Tree left;
    final Tree right;

    private Tree(long value, Tree left, Tree right) {
        this.value = value;
        this.left = left;
        this.right = right;
    }

    /** Builds a balanced tree of {@code 2^depth - 1} nodes, valued 1, 2, 3, ... in pre-order. */
    static Tree balanced(int depth) {
        return build(depth, new long[] {0});
    }

    private static Tree build(int depth, long[] next) {
        if (depth == 0) return null;
        long value = ++next[0];
        Tree left = build(depth - 1, next);
        Tree right = build(depth - 1, next);
        return new Tree(value, left, right);
    }

    /** @return 1 + 2 + ... + nodes, the sum of a tree of that many nodes */
    static long expectedSum(long nodes) {
        return nodes * (nodes + 1) / 2;
    }
}
