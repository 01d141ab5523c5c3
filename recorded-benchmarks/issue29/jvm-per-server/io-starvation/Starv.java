import io.spindle.ThreadPool;
import io.spindle.bench.echo.Starvation;

public class Starv {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        long busy = Long.parseLong(a[1]) * 1_000_000L;
        StringBuilder sb = new StringBuilder();
        try (ThreadPool pool = ThreadPool.builder().threads(2).build()) {
            for (int i = 0; i < 3; i++) Starvation.delayNanos(pool, busy); // warm
            for (int i = 0; i < n; i++) {
                long d = Starvation.delayNanos(pool, busy);
                sb.append(String.format("%.2f ", d / 1e6));
            }
        }
        System.out.println(sb);
    }
}
