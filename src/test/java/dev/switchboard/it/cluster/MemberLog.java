package dev.switchboard.it.cluster;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.stream.JsonParsingException;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A cluster member's {@code messages.log} as a person reads it when its start went wrong: Liberty's JSON lines turned
 * into {@code time level message}, and of them the lines that say how far the start got (server ready, database
 * migrated, Hazelcast member started, cluster size, application started) or why it stopped (errors, warnings, a
 * refusal), rather than the last lines, which on a slow start are only EJB bindings.
 */
final class MemberLog {

    /** The lines worth showing of a member whose start failed: the last ones of these kinds. */
    private static final Pattern MATTERS = Pattern.compile(
            "CWWKE0001I|CWWKF0011I|CWWKZ000[12]|CWWKZ0012I|CWWKZ0022W|CWWKO0219I|Database schema at version|Cluster member"
                    + "|Members \\{size|is STARTED|refused to start|Exception|Caused by");
    /** A member that logged one of these (its application failed or was refused, the server stops) will never answer ready. */
    private static final Pattern HOPELESS = Pattern.compile("CWWKZ0002E|CWWKZ0012I|refused to start|CWWKE0055I|CWWKE0036I");
    private static final int SHOWN = 30;
    private static final int LONGEST_LINE = 400;

    private final String server;
    private final Path file;

    MemberLog(String server) {
        this.server = server;
        this.file = ClusterMembers.WLP.resolve("usr/servers/" + server + "/logs/messages.log");
    }

    Path file() {
        return file;
    }

    /** Every line, rendered: {@code 10:41:31.109 INFO Cluster member [127.0.0.1]:21784 ... started; members now: 2}. */
    List<String> lines() {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            List<String> rendered = new ArrayList<>();
            for (String line : Files.readAllLines(file)) {
                rendered.add(render(line));
            }
            return rendered;
        } catch (IOException e) {
            return List.of("(" + file + " unreadable: " + e + ")");
        }
    }

    /** The first line saying the application will not start, if there is one. */
    Optional<String> hopeless() {
        return lines().stream().filter(line -> HOPELESS.matcher(line).find()).findFirst();
    }

    /** The member's name, its log, and the last {@value #SHOWN} lines that matter (every one, warning or worse). */
    String whatMatters() {
        List<String> all = lines();
        if (all.isEmpty()) {
            return server + ": no " + file + " (the server never started to log; see target/cluster/" + server + ".out)";
        }
        List<String> matter = all.stream().filter(line -> MATTERS.matcher(line).find() || worrying(line)).toList();
        List<String> shown = matter.subList(Math.max(0, matter.size() - SHOWN), matter.size());
        return server + " (" + file + ", " + all.size() + " lines), what matters" + (shown.size() < matter.size()
                ? " (last " + shown.size() + " of " + matter.size() + ")" : "") + ":\n  " + String.join("\n  ", shown)
                + "\n  last line: " + all.get(all.size() - 1);
    }

    /** The last {@code count} lines, rendered. */
    String tail(int count) {
        List<String> all = lines();
        return String.join("\n", all.subList(Math.max(0, all.size() - count), all.size()));
    }

    private static boolean worrying(String rendered) {
        return rendered.contains(" WARNING ") || rendered.contains(" SEVERE ") || rendered.contains(" ERROR ");
    }

    /** A JSON line of Liberty's as {@code time level message} on one line; any other line as it is. */
    static String render(String line) {
        if (!line.startsWith("{")) {
            return cut(line);
        }
        try (var reader = Json.createReader(new StringReader(line))) {
            JsonObject json = reader.readObject();
            String time = json.getString("ibm_datetime", "");
            String shortTime = time.length() >= 23 ? time.substring(11, 23) : time;
            String message = json.getString("message", "") + (json.containsKey("ibm_exceptionName")
                    ? " [" + json.getString("ibm_exceptionName", "") + "]" : "");
            return cut(shortTime + " " + json.getString("loglevel", "?") + " " + message.replaceAll("\\s+", " "));
        } catch (JsonParsingException | ClassCastException notOurs) {
            return cut(line);
        }
    }

    private static String cut(String line) {
        return line.length() <= LONGEST_LINE ? line : line.substring(0, LONGEST_LINE) + "...";
    }
}
