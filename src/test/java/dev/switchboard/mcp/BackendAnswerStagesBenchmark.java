package dev.switchboard.mcp;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * Where the CPU of a large backend answer goes (issue 15's hostile benchmark: a stdio backend answering a tool call with
 * a 900 KB string), stage by stage, on this thread's CPU clock, so a busy machine disturbs it little: the stdio line
 * read and decoded as the transport does, the message parsed under the JSON limits as from a peer, the answer to the
 * client written as JSON bytes, and the three together. Each stage first on a fresh JVM (the first call: what a cold
 * server pays, compilation included), then the least of 10 rounds of 50 calls once warm. A benchmark, not a test. Run:
 * {@code mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.switchboard.mcp.BackendAnswerStagesBenchmark [-Dexec.args=900000]}
 */
public final class BackendAnswerStagesBenchmark {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static Object sink;

    private BackendAnswerStagesBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int characters = args.length > 0 ? Integer.parseInt(args[0]) : 900_000;
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"name\":\"echo\",\"arguments\":{\"s\":\""
                + "x".repeat(characters) + "\"}}}";
        byte[] line = (answer + "\n").getBytes(StandardCharsets.UTF_8);
        JsonRpcMessage parsed = JsonRpcMessage.parseFromPeer(answer);
        Callable<Object> read = () -> new BufferedReader(new InputStreamReader(new ByteArrayInputStream(line), StandardCharsets.UTF_8)).readLine();
        Callable<Object> parse = () -> JsonRpcMessage.parseFromPeer(answer);
        Callable<Object> write = () -> reply(parsed);
        Callable<Object> whole = () -> reply(JsonRpcMessage.parseFromPeer((String) read.call()));
        System.out.printf("backend answer of %,d characters, ms of this thread's CPU%n", characters);
        System.out.printf("first call:  read %.2f, parse %.2f, write %.2f%n", once(read), once(parse), once(write));
        System.out.printf("warm (least of 10 x 50): read %.2f, parse %.2f, write %.2f, all three %.2f%n",
                warm(read), warm(parse), warm(write), warm(whole));
    }

    /** What the gateway sends the client for the backend's answer: the result under the client's id, as JSON bytes. */
    private static byte[] reply(JsonRpcMessage answer) {
        return JsonRpcMessage.result(answer.id(), answer.json().getJsonObject("result")).toJson().getBytes(StandardCharsets.UTF_8);
    }

    private static double once(Callable<Object> stage) throws Exception {
        long start = THREADS.getCurrentThreadCpuTime();
        sink = stage.call();
        return (THREADS.getCurrentThreadCpuTime() - start) / 1e6;
    }

    private static double warm(Callable<Object> stage) throws Exception {
        for (int i = 0; i < 100; i++) {
            sink = stage.call();
        }
        double least = Double.MAX_VALUE;
        for (int round = 0; round < 10; round++) {
            long start = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < 50; i++) {
                sink = stage.call();
            }
            least = Math.min(least, (THREADS.getCurrentThreadCpuTime() - start) / 1e6 / 50);
        }
        return least;
    }
}
