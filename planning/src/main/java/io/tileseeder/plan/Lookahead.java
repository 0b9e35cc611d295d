package io.tileseeder.plan;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** An iterator that finds each element ahead of being asked: {@link #advance} answers the next one, null at the end. */
abstract class Lookahead<T> implements Iterator<T> {

    private T next;

    /** The next element, or null if there is none. */
    protected abstract T advance();

    @Override
    public final boolean hasNext() {
        if (next == null) {
            next = advance();
        }
        return next != null;
    }

    @Override
    public final T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        T element = next;
        next = null;
        return element;
    }
}
