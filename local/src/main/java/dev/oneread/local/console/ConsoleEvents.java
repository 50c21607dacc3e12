package dev.oneread.local.console;

import dev.oneread.json.Json;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.FutureCallback;

/**
 * Server-sent events to every open console: a request served, partitions changed, the log cleared. Each console
 * gets its own thread and queue, so a slow tab never holds up the API; a tab that falls 1,000 events behind is
 * dropped, and its EventSource reconnects and reloads.
 */
final class ConsoleEvents implements AutoCloseable {
    private static final int QUEUE = 1_000;
    /** A comment line this often keeps proxies and the browser from closing an idle stream. */
    private static final long HEARTBEAT_SECONDS = 15;

    private final Set<BlockingQueue<String>> subscribers = new CopyOnWriteArraySet<>();
    private volatile boolean closed;

    void publish(String type, Object data) {
        String frame = "event: " + type + "\ndata: " + Json.write(data) + "\n\n";
        for (BlockingQueue<String> queue : subscribers) {
            if (!queue.offer(frame)) {
                subscribers.remove(queue);
                queue.clear();
                queue.offer(CLOSE);
            }
        }
    }

    /** True while at least one console listens: what the heat poller runs for. */
    boolean watched() {
        return !subscribers.isEmpty();
    }

    /** Tells every open console to stop listening: the server is going away. */
    @Override
    public void close() {
        closed = true;
        subscribers.forEach(q -> q.offer(CLOSE));
    }

    private static final String CLOSE = "";

    /** Streams events to {@code response} on a thread of its own until the tab goes away or the server stops. */
    void stream(Response response, Callback callback) {
        BlockingQueue<String> queue = new ArrayBlockingQueue<>(QUEUE);
        subscribers.add(queue);
        Thread thread = new Thread(
                () -> {
                    try {
                        write(response, ": connected\n\n");
                        while (!closed) {
                            String frame = queue.poll(HEARTBEAT_SECONDS, TimeUnit.SECONDS);
                            if (frame == CLOSE) {
                                break;
                            }
                            write(response, frame == null ? ": heartbeat\n\n" : frame);
                        }
                        response.write(true, ByteBuffer.allocate(0), callback);
                    } catch (Exception e) {
                        // The tab closed: the write failed. Nothing to tell anyone.
                        callback.failed(e);
                    } finally {
                        subscribers.remove(queue);
                    }
                },
                "console-events");
        thread.setDaemon(true);
        thread.start();
    }

    private static void write(Response response, String text) throws Exception {
        FutureCallback written = new FutureCallback();
        response.write(false, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), written);
        written.get(30, TimeUnit.SECONDS);
    }
}
