package io.spindle.internal.job;

/**
 * TEST ONLY, NEVER IN THE LIBRARY: {@link InjectedJob#claim()} without its monitor: a read of the flag, then a store
 * ("check, then set"), so two claimants can both read it unset.
 */
public final class WeakenedInjectedJob {
    private boolean claimed;

    public boolean claim() {
        if (claimed) { // WEAKENED: no monitor around the check and the set
            return false;
        }
        claimed = true;
        return true;
    }
}
