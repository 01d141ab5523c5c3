package io.spindle.internal.par;

/**
 * One leaf's output when the output size is not known in advance (a filtering stage, or a spliterator source): a
 * growable array of the leaf's elements in encounter order, linked to the chunks of the leaves after it.
 *
 * <p>Combining two sibling pieces links the right chain after the left one in O(1) (the head keeps a pointer to its
 * chain's last chunk), so collecting costs no copying until the very end, when {@link #copyChainInto} copies every
 * chunk once into the result array. That final copy is sequential: it is one {@code arraycopy} per leaf, which is
 * cheap next to the work that produced the elements.
 *
 * @param <C> the concrete chunk type (one per element type, which keeps the arrays unboxed)
 */
abstract class Chunk<C extends Chunk<C>> {
    /** The largest array the JVM reliably allocates (as the JDK's own collections assume). */
    static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    /** Elements in this chunk's array. */
    int size;

    private C next;
    private C last; // valid on the head of a chain only; null means "this chunk is its chain's last"

    /** @return this chunk's element array ({@code int[]}, ..., {@code Object[]}), valid up to {@link #size} */
    abstract Object array();

    /** Links {@code right}'s chain after this one's; returns this chain's head (this). */
    @SuppressWarnings("unchecked")
    final C append(C right) {
        Chunk<C> tail = last != null ? last : this;
        Chunk<C> rightHead = right; // private members are reachable through Chunk<C>, not through C
        tail.next = right;
        last = rightHead.last != null ? rightHead.last : right;
        return (C) this;
    }

    /**
     * @return the number of elements in this chain
     * @throws IllegalStateException if they do not fit in one array
     */
    final int chainSize() {
        long total = 0;
        for (Chunk<C> c = this; c != null; c = c.next) {
            total += c.size;
        }
        if (total > MAX_ARRAY_LENGTH) {
            throw tooManyElements(total);
        }
        return (int) total;
    }

    /** Copies the chain's elements, in order, into {@code dest} from index 0. */
    final void copyChainInto(Object dest) {
        int at = 0;
        for (Chunk<C> c = this; c != null; c = c.next) {
            System.arraycopy(c.array(), 0, dest, at, c.size);
            at += c.size;
        }
    }

    /**
     * @param length the current capacity
     * @return the capacity to grow a full array to
     * @throws IllegalStateException if the array cannot grow any more
     */
    static int grownCapacity(int length) {
        if (length >= MAX_ARRAY_LENGTH) {
            throw tooManyElements((long) length + 1);
        }
        return (int) Math.min(MAX_ARRAY_LENGTH, Math.max(16L, 2L * length));
    }

    static IllegalStateException tooManyElements(long n) {
        return new IllegalStateException("cannot collect " + n + " elements into one array (at most "
                + MAX_ARRAY_LENGTH + ")");
    }
}
