package io.spindle.bench.workload;

import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/**
 * matmul: C = A x B for n x n doubles by recursive blocking. Each level splits into quadrants and runs in two phases,
 * the four products of each phase in parallel (C00 += A00 B00, C01 += A00 B01, ... then the A01 / A11 halves), so
 * no two tasks write the same block at once and the additions happen in the same order on every pool: the result is
 * bit-for-bit the sequential one.
 */
final class MatMul extends ComputeWorkload {
    /** Blocks this small are multiplied by a plain i-k-j loop. */
    static final int LEAF = 64;

    private final int n;
    private double[] a;
    private double[] b;
    private double[] c;
    private long expected;

    MatMul(int n) {
        super("matmul");
        if (n < LEAF || Integer.bitCount(n) != 1) throw new IllegalArgumentException("n must be a power of two >= 64");
        this.n = n;
    }

    @Override
    public String description() {
        return String.format("recursive blocked multiply of %dx%d doubles, %dx%d leaf blocks", n, n, LEAF, LEAF);
    }

    @Override
    public void setUp() {
        Random r = new Random(7);
        a = r.doubles((long) n * n).toArray();
        b = r.doubles((long) n * n).toArray();
        c = new double[n * n];
        sequential(new Block(a, b, c, n, 0, 0, 0, 0, 0, 0, n));
        expected = checksum(c);
    }

    @Override
    public void tearDown() {
        super.tearDown();
        a = b = c = null;
    }

    @Override
    void beforeRun() {
        Arrays.fill(c, 0.0);
    }

    private Block whole() {
        return new Block(a, b, c, n, 0, 0, 0, 0, 0, 0, n);
    }

    @Override
    long onSpindle(ThreadPool pool) {
        Block m = whole();
        pool.install(() -> {
            spindle(m);
            return null;
        });
        return checksum(c);
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        pool.invoke(new Task(whole()));
        return checksum(c);
    }

    @Override
    long onSequential() {
        sequential(whole());
        return checksum(c);
    }

    @Override
    void verify(long result) {
        expect("checksum of C", result, expected);
    }

    private static long checksum(double[] m) {
        double s = 0;
        for (double x : m) s += x;
        return Double.doubleToLongBits(s);
    }

    static void spindle(Block m) {
        if (m.size <= LEAF) {
            m.multiplyLeaf();
            return;
        }
        Block[] q = m.quadrants(0);
        Spindle.join(() -> Spindle.join(() -> spindle(q[0]), () -> spindle(q[1])),
                () -> Spindle.join(() -> spindle(q[2]), () -> spindle(q[3])));
        Block[] p = m.quadrants(1);
        Spindle.join(() -> Spindle.join(() -> spindle(p[0]), () -> spindle(p[1])),
                () -> Spindle.join(() -> spindle(p[2]), () -> spindle(p[3])));
    }

    static void sequential(Block m) {
        if (m.size <= LEAF) {
            m.multiplyLeaf();
            return;
        }
        for (int phase = 0; phase < 2; phase++) {
            for (Block q : m.quadrants(phase)) sequential(q);
        }
    }

    @SuppressWarnings("serial")
    static final class Task extends RecursiveAction {
        private final Block m;

        Task(Block m) {
            this.m = m;
        }

        @Override
        protected void compute() {
            if (m.size <= LEAF) {
                m.multiplyLeaf();
                return;
            }
            for (int phase = 0; phase < 2; phase++) {
                Block[] q = m.quadrants(phase);
                invokeAll(new Task(q[0]), new Task(q[1]), new Task(q[2]), new Task(q[3]));
            }
        }
    }

    /** C[cr.., cc..] += A[ar.., ac..] x B[br.., bc..] on size x size blocks of row-major n x n matrices. */
    record Block(double[] a, double[] b, double[] c, int n, int ar, int ac, int br, int bc, int cr, int cc,
                 int size) {
        /**
         * The four products of one phase: phase 0 uses A's left column of blocks (A00, A10) and B's top row, phase 1
         * A's right column and B's bottom row. Within a phase each product writes a different quadrant of C.
         */
        Block[] quadrants(int phase) {
            int h = size / 2;
            int k = phase * h; // which column of A / row of B
            return new Block[] {
                new Block(a, b, c, n, ar, ac + k, br + k, bc, cr, cc, h),
                new Block(a, b, c, n, ar, ac + k, br + k, bc + h, cr, cc + h, h),
                new Block(a, b, c, n, ar + h, ac + k, br + k, bc, cr + h, cc, h),
                new Block(a, b, c, n, ar + h, ac + k, br + k, bc + h, cr + h, cc + h, h),
            };
        }

        void multiplyLeaf() {
            for (int i = 0; i < size; i++) {
                int cRow = (cr + i) * n + cc;
                int aRow = (ar + i) * n + ac;
                for (int k = 0; k < size; k++) {
                    double x = a[aRow + k];
                    int bRow = (br + k) * n + bc;
                    for (int j = 0; j < size; j++) c[cRow + j] += x * b[bRow + j];
                }
            }
        }
    }
}
