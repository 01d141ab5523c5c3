package io.spindle.internal.io;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IO7's hint for when the watchdog parks ({@code IoWatchdog.newIoClaimedWhileTicking}): a claim that finds the watchdog
 * awake leaves the hint, which the watchdog's next step takes once; a claim that ends a park unparks it instead and
 * leaves no hint (the look after the park judges that claim). Driven on a parking state alone, with no thread parked.
 */
class WatchdogParkingHintTest {
    @Test
    void aClaimThatFindsTheWatchdogAwakeLeavesTheHintOnce() {
        WatchdogParking parking = new WatchdogParking();
        assertFalse(parking.takeClaimedWhileAwake(), "no claim yet");
        assertFalse(parking.claimFromAnyPark(), "an awake watchdog is not unparked");
        assertFalse(parking.claimFromAnyPark(), "nor by a second claim");
        assertTrue(parking.takeClaimedWhileAwake(), "the claims left the hint");
        assertFalse(parking.takeClaimedWhileAwake(), "taking the hint clears it");
    }

    @Test
    void aClaimThatEndsAParkLeavesNoHint() {
        for (int how : new int[] {WatchdogParking.SWEEPING, WatchdogParking.PARKED}) {
            WatchdogParking parking = new WatchdogParking();
            parking.announce(how);
            assertTrue(parking.claimFromAnyPark(), "the claimer unparks a parked watchdog (" + how + ")");
            assertEquals(WatchdogParking.AWAKE, parking.state());
            assertFalse(parking.takeClaimedWhileAwake(), "a claim that unparks leaves no hint (" + how + ")");
        }
    }
}
