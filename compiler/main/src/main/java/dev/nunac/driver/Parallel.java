package dev.nunac.driver;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The little concurrency the compiler uses: independent pure stages (loading the topology
 * while the plan parses, rendering outputs side by side) on daemon threads, with a failure
 * rethrown on the caller exactly as the stage threw it, so error messages and exit codes do not
 * depend on which thread ran the stage.
 */
public final class Parallel {
    private Parallel() {}

    /** A pool of daemon threads (a forgotten pool never keeps the JVM alive). */
    public static ExecutorService pool(String name, int threads) {
        return Executors.newFixedThreadPool(threads, task -> {
            Thread t = new Thread(task, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts {@code task} on a new daemon thread. */
    public static <T> CompletableFuture<T> start(String name, java.util.function.Supplier<T> task) {
        return CompletableFuture.supplyAsync(task, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            t.start();
        });
    }

    /** The stage's value, or its own exception (not wrapped). */
    public static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) throw re;
            if (c instanceof Error err) throw err;
            throw e;
        }
    }
}
