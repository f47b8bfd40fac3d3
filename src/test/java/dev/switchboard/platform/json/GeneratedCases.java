package dev.switchboard.platform.json;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * Generated inputs for the parameterised tests over the JSON reading paths. Each test seeds its own {@link Random}, so
 * every run tries the same cases and a failure reproduces; a case's name shows its input. The edges of the limits, where
 * an off-by-one would show, are listed as cases of their own beside the generated ones.
 */
public final class GeneratedCases {

    private GeneratedCases() {
    }

    /** The given edge cases, then {@code count} cases made by {@code generator} from a Random seeded with {@code seed}. */
    public static Stream<Arguments> cases(long seed, int count, List<Arguments> edges, Function<Random, Arguments> generator) {
        Random random = new Random(seed);
        return Stream.concat(edges.stream(), Stream.generate(() -> generator.apply(random)).limit(count));
    }

    /** Every combination of the edge values of two inputs, as cases. */
    public static <A, B> List<Arguments> combinations(List<A> first, List<B> second) {
        List<Arguments> all = new ArrayList<>();
        first.forEach(a -> second.forEach(b -> all.add(Arguments.of(a, b))));
        return all;
    }

    /**
     * {@code minLength} to {@code maxLength} decimal digits from {@code lowest} to 9; a number's text, so no leading
     * zero unless it is the only digit.
     */
    public static String digits(Random random, char lowest, int minLength, int maxLength) {
        int length = random.nextInt(minLength, maxLength + 1);
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            char from = i == 0 && length > 1 ? (char) Math.max(lowest, '1') : lowest;
            out.append((char) random.nextInt(from, '9' + 1));
        }
        return out.toString();
    }

    /** Half the time an exponent around the scale limit (within ±1100), else anywhere within ±{@code wide}. */
    public static long exponent(Random random, long wide) {
        long bound = random.nextBoolean() ? 1100 : wide;
        return random.nextLong(-bound, bound + 1);
    }

    /**
     * The exponents where a limit or an overflow lies, either sign: the scale limit and its neighbours, the int range
     * a number's scale is held in (and beyond it), and the ends of the generated ranges.
     */
    public static List<Long> exponentEdges(long wide) {
        long scale = JsonLimits.DEFAULTS.maxNumberScale();
        return LongStream.of(0, 1, scale - 1, scale, scale + 1, 1100, Integer.MAX_VALUE - 101, Integer.MAX_VALUE - 1,
                        Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, Integer.MAX_VALUE + 2L, wide)
                .flatMap(e -> e == 0 ? LongStream.of(0) : LongStream.of(e, -e))
                .boxed().toList();
    }

    /**
     * Up to {@code maxLength} UTF-16 units: a third any units at all (as likely to be surrogates as anything else), a
     * third well-formed text with surrogate pairs in it, a third well-formed text with one unpaired surrogate put in.
     */
    public static String utf16Units(Random random, int maxLength) {
        int length = random.nextInt(0, maxLength + 1);
        StringBuilder out = new StringBuilder(length);
        int mode = random.nextInt(3);
        while (out.length() < length) {
            if (mode == 0) {
                out.append((char) random.nextInt(0, 0x10000));
            } else if (random.nextInt(4) == 0 && out.length() + 2 <= length) {
                out.appendCodePoint(random.nextInt(0x10000, Character.MAX_CODE_POINT + 1));
            } else {
                out.append(nonSurrogate(random));
            }
        }
        if (mode == 2) {
            char lone = (char) (random.nextBoolean() ? random.nextInt(0xd800, 0xdc00) : random.nextInt(0xdc00, 0xe000));
            int at = random.nextInt(0, out.length() + 1);
            // never between the halves of a pair, which would leave two unpaired halves instead of one
            if (at > 0 && at < out.length() && Character.isHighSurrogate(out.charAt(at - 1))) {
                at++;
            }
            out.insert(at, lone);
        }
        return out.toString();
    }

    /** The strings where surrogate handling and escaping go wrong. */
    public static final List<String> UTF16_EDGES = List.of("", "\u0000", "\uffff", "\ud800", "\udbff", "\udc00", "\udfff",
            "\ud800\udc00", "\udbff\udfff", "\udc00\ud800", "a\ud800", "\udfffa", "\"", "\\", "\u001f", "\u2028");

    /** A string as a named argument, so the case's name shows its units escaped, in quotes. */
    public static Named<String> named(String value) {
        return Named.of('"' + shown(value) + '"', value);
    }

    /** The text with everything but printable ASCII written as a backslash-u escape. */
    public static String shown(String value) {
        StringBuilder out = new StringBuilder();
        value.chars().forEach(c -> {
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                out.append((char) c);
            } else {
                out.append(String.format("\\u%04x", c));
            }
        });
        return out.toString();
    }

    private static char nonSurrogate(Random random) {
        int c = random.nextInt(0, 0x10000 - 0x800);
        return (char) (c < 0xd800 ? c : c + 0x800);
    }
}
