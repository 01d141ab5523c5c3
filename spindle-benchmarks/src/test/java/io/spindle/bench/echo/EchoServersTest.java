package io.spindle.bench.echo;

import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every echo server of the IO workloads really echoes: the client checks each answer byte for byte against its
 * request (distinct per connection and request) and fails the run otherwise; plain and with echo-compute's
 * computation, on several connections at once. Servers that this JVM or class path cannot run (virtual threads before
 * JDK 21, Netty missing, Spindle without IO) are left out, as the runner leaves them out. No timing is asserted.
 */
class EchoServersTest {
    private static final PoolKind[] KINDS = {PoolKind.SPINDLE_JEC, PoolKind.SPINDLE_SLEEPY, PoolKind.SPINDLE_HINT,
            PoolKind.PLATFORM_THREADS, PoolKind.VIRTUAL_THREADS, PoolKind.SELECTOR_FJP, PoolKind.NETTY};

    private static List<PoolKind> runnable() {
        return java.util.Arrays.stream(KINDS).filter(k -> k.unavailableReason().isEmpty())
                .filter(k -> !k.isSpindle() || EchoServer.spindleUnavailableReason().isEmpty()).toList();
    }

    private static void echoesOn(PoolKind kind, Compute compute) throws Exception {
        try (Target t = Target.open(kind, 2);
             EchoServer server = EchoServer.start(t, compute);
             EchoClient client = EchoClient.connect(server.address(), 5)) {
            String where = kind.id() + (compute == null ? "" : " with compute");
            for (int i = 0; i < client.connections(); i++) {
                assertTrue(client.roundTrip(i) > 0, where);
            }
            EchoClient.Outcome o = client.pingPong(TimeUnit.MILLISECONDS.toNanos(30)); // throws on a wrong answer
            assertTrue(o.requests() >= client.connections(), where + ": " + o.requests() + " answers");
            EchoClient.Outcome paced = client.paced(TimeUnit.MILLISECONDS.toNanos(1), 5);
            assertEquals(5, paced.requests(), where);
        }
    }

    @Test
    void everyServerEchoesEveryRequestIntact() throws Exception {
        List<PoolKind> kinds = runnable();
        assertTrue(kinds.containsAll(List.of(PoolKind.PLATFORM_THREADS, PoolKind.SELECTOR_FJP)), kinds.toString());
        for (PoolKind k : kinds) echoesOn(k, null);
    }

    @Test
    void everyServerEchoesAfterItsComputation() throws Exception {
        Compute small = Compute.ofLength(3 * Compute.LEAF + 17); // uneven halves, a few leaves
        for (PoolKind k : runnable()) echoesOn(k, small);
    }

    @Test
    void theComputationsAgreeWithTheSequentialSum() {
        Compute c = Compute.ofLength(5 * Compute.LEAF + 3);
        try (Target t = Target.open(PoolKind.FJP, 2)) {
            c.check(c.onFjp(t.fjp()));
        }
        if (EchoServer.spindleUnavailableReason().isEmpty()) {
            try (Target t = Target.open(PoolKind.SPINDLE_JEC, 2)) {
                c.check(t.spindle().install(c::onSpindle));
            }
        }
    }

    @Test
    void nettyIsOnTheTestClassPath() {
        // the module depends on it: a missing Netty here would silently drop the baseline from every run
        assertTrue(PoolKind.NETTY.unavailableReason().isEmpty(), PoolKind.NETTY.unavailableReason().toString());
    }
}
