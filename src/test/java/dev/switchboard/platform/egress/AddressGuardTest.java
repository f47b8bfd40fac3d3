package dev.switchboard.platform.egress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AddressGuardTest {

    private static final AddressGuard USERS = AddressGuard.denyInternal(List.of());

    /** Names resolved from a fixed table, so no test depends on the machine's DNS (except {@code localhost}). */
    private static final Map<String, String> TABLE = Map.of(
            "metadata.example", "169.254.169.254",
            "public.example", "93.184.216.34",
            "mixed.example", "93.184.216.34,10.0.0.5",
            "mcp.internal.example", "10.20.30.40");

    private static InetAddress[] table(String host) throws UnknownHostException {
        if ("localhost".equals(host)) {
            return InetAddress.getAllByName(host);
        }
        String entry = TABLE.get(host);
        if (entry == null) {
            throw new UnknownHostException(host);
        }
        InetAddress[] out = new InetAddress[entry.split(",").length];
        for (int i = 0; i < out.length; i++) {
            out[i] = InetAddress.getByName(entry.split(",")[i]);
        }
        return out;
    }

    private static String refusal(AddressGuard guard, String host) {
        return assertThrows(AddressNotAllowedException.class, () -> guard.resolve(host, AddressGuardTest::table),
                () -> host + " was let through").getMessage();
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', value = {
            "127.0.0.1        | loopback",
            "127.255.255.254  | loopback",
            "0.0.0.0          | unspecified (\"this network\")",
            "10.1.2.3         | private",
            "172.16.0.1       | private",
            "172.31.255.255   | private",
            "192.168.1.1      | private",
            "100.64.0.1       | carrier-grade NAT (shared address space)",
            "100.127.255.254  | carrier-grade NAT (shared address space)",
            "169.254.169.254  | link-local (the cloud metadata service)",
            "169.254.10.10    | link-local",
            "224.0.0.1        | multicast",
            "239.255.255.250  | multicast",
            "255.255.255.255  | broadcast",
            "240.0.0.1        | reserved",
            "[::1]            | loopback",
            "[::]             | unspecified",
            "[fe80::1]        | link-local",
            "[febf:ffff::1]   | link-local",
            "[fc00::1]        | private (unique local)",
            "[fd00:ec2::254]  | private (unique local)",
            "[ff02::1]        | multicast",
            "[::ffff:127.0.0.1]   | loopback",
            "[::ffff:169.254.169.254] | link-local (the cloud metadata service)",
            "[::ffff:a9fe:a9fe]   | link-local (the cloud metadata service)",
            "[::ffff:10.0.0.1]    | private",
    })
    void deniesEveryInternalRange(String host, String reason) {
        String message = refusal(USERS, host);
        assertTrue(message.startsWith("address not allowed: "), message);
        assertTrue(message.endsWith(" is " + reason + "; an admin can allow it for this tenant"), message);
    }

    @ParameterizedTest(name = "{0} -> {1} ({2})")
    @CsvSource(delimiter = '|', value = {
            "[::127.0.0.1]        | 127.0.0.1   | loopback",
            "[::10.0.0.1]         | 10.0.0.1    | private",
            "[64:ff9b::7f00:1]    | 127.0.0.1   | loopback",
            "[64:ff9b::a9fe:a9fe] | 169.254.169.254 | link-local (the cloud metadata service)",
            "[2002:7f00:1::1]     | 127.0.0.1   | loopback",
            "[2002:c0a8:101::1]   | 192.168.1.1 | private",
    })
    void deniesIpv4InsideIpv6(String host, String embedded, String reason) {
        assertTrue(refusal(USERS, host).endsWith(" is " + reason + " (" + embedded
                + " inside an IPv6 address); an admin can allow it for this tenant"), refusal(USERS, host));
    }

    @ParameterizedTest(name = "{0} is 127.0.0.1")
    @CsvSource({"2130706433", "0177.0.0.1", "0x7f.0.0.1", "127.1", "0x7f000001", "017700000001", "127.0.1",
            "127.000.000.001", "0x7F.0x0.0x0.0x1"})
    void readsOddIpv4SpellingsAsResolversDo(String host) throws Exception {
        assertEquals(InetAddress.getByName("127.0.0.1"), Ipv4Spellings.parse(host).orElseThrow());
        assertEquals("address not allowed: " + host + " (127.0.0.1) is loopback; an admin can allow it for this tenant",
                refusal(USERS, host));
    }

    @Test
    void oddSpellingOfPublicAddressConnectsToWhatWasChecked() throws Exception {
        // 0x5d.184.216.34 is 93.184.216.34 for inet_aton; Java alone would not even read it as an address
        assertEquals(List.of(InetAddress.getByName("93.184.216.34")),
                USERS.resolve("0x5d.184.216.34", AddressGuardTest::table));
        // Java reads 0177.0.0.1 as 177.0.0.1 (public): the guard reads it as curl does, and refuses it
        assertTrue(refusal(USERS, "0177.0.0.1").contains("(127.0.0.1) is loopback"));
    }

    @ParameterizedTest
    @CsvSource({"256.0.0.1", "1.2.3.4.5", "08.0.0.1", "0x100.0.0.1", "4294967296"})
    void refusesNumbersThatAreNoAddress(String host) {
        assertEquals("address not allowed: '" + host + "' is not a valid IPv4 address", refusal(USERS, host));
    }

    @Test
    void refusesNameResolvingToLoopback() {
        assertTrue(refusal(USERS, "localhost").matches("address not allowed: localhost \\((127\\.0\\.0\\.1|0:0:0:0:0:0:0:1)\\) "
                + "is loopback; an admin can allow it for this tenant"), refusal(USERS, "localhost"));
        assertEquals("address not allowed: metadata.example (169.254.169.254) is link-local (the cloud metadata service); "
                + "an admin can allow it for this tenant", refusal(USERS, "metadata.example"));
    }

    @Test
    void refusesNameWithOneInternalAddressAmongPublicOnes() {
        assertEquals("address not allowed: mixed.example (10.0.0.5) is private; an admin can allow it for this tenant",
                refusal(USERS, "mixed.example"));
    }

    @Test
    void refusesAnAddressOfThisMachine() throws Exception {
        InetAddress own = java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(n -> java.util.Collections.list(n.getInetAddresses()).stream())
                .filter(a -> InternalAddresses.reason(a).filter(r -> !r.equals("an address of this server itself")).isEmpty())
                .findFirst().orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(own != null, "this machine has no public address of its own");
        assertEquals("an address of this server itself", InternalAddresses.reason(own).orElseThrow());
    }

    @Test
    void letsPublicAddressesThrough() throws Exception {
        assertEquals(List.of(InetAddress.getByName("93.184.216.34")), USERS.resolve("public.example", AddressGuardTest::table));
        assertEquals(List.of(InetAddress.getByName("8.8.8.8")), USERS.resolve("8.8.8.8", AddressGuardTest::table));
        assertEquals(List.of(InetAddress.getByName("2606:4700::1111")), USERS.resolve("[2606:4700::1111]", AddressGuardTest::table));
        // the edges of the private ranges are public
        for (String edge : List.of("172.15.255.255", "172.32.0.0", "100.63.255.255", "100.128.0.0", "11.0.0.0", "192.169.0.1")) {
            assertEquals(1, USERS.resolve(edge, AddressGuardTest::table).size(), edge);
        }
    }

    @Test
    void allowlistLetsNamedInternalDestinationsThrough() throws Exception {
        AddressGuard tenant = AddressGuard.denyInternal(List.of(entry("10.20.0.0/16"), entry("localhost"), entry("fd00::/8"),
                entry("169.254.169.254")));
        assertEquals(List.of(InetAddress.getByName("10.20.30.40")), tenant.resolve("mcp.internal.example", AddressGuardTest::table));
        assertEquals(List.of(InetAddress.getByName("10.20.1.1")), tenant.resolve("10.20.1.1", AddressGuardTest::table));
        assertTrue(Arrays.stream(table("localhost")).toList().containsAll(tenant.resolve("localhost", AddressGuardTest::table)));
        assertEquals(1, tenant.resolve("[fd12::1]", AddressGuardTest::table).size());
        assertEquals(1, tenant.resolve("[::ffff:169.254.169.254]", AddressGuardTest::table).size());
        // only what is listed: the next network, another loopback spelling without the name, the rest of link-local
        assertTrue(refusal(tenant, "10.21.0.1").endsWith("is private; an admin can allow it for this tenant"));
        assertTrue(refusal(tenant, "127.0.0.1").contains("is loopback"));
        assertTrue(refusal(tenant, "169.254.169.253").contains("is link-local"));
    }

    @Test
    void allowedHostNameIsTheNameOnlyNotEverythingItResolvesTo() throws Exception {
        AddressGuard tenant = AddressGuard.denyInternal(List.of(entry("mcp.internal.example")));
        assertEquals(1, tenant.resolve("MCP.Internal.Example.", AddressGuardTest::table).size());
        assertTrue(refusal(tenant, "10.20.30.40").contains("is private"));
    }

    @Test
    void unresolvableNameIsUnknownNotDenied() {
        assertThrows(UnknownHostException.class, () -> USERS.resolve("nowhere.example", AddressGuardTest::table));
    }

    @Test
    void unrestrictedGuardLetsEverythingThrough() throws Exception {
        assertEquals(List.of(InetAddress.getByName("127.0.0.1")),
                AddressGuard.UNRESTRICTED.resolve("2130706433", AddressGuardTest::table));
        assertEquals(1, AddressGuard.UNRESTRICTED.resolve("metadata.example", AddressGuardTest::table).size());
    }

    @ParameterizedTest
    @CsvSource({"10.0.0.0/33", "10.0.0.0/-1", "2130706433", "0177.0.0.1", "127.1", "exa mple", "-bad.example", "''",
            "10.0.0.0/8/8", "::1/129"})
    void allowlistEntriesMustBeNetworksAddressesOrNames(String text) {
        assertTrue(AllowedNetwork.parse(text).isEmpty(), text);
    }

    @Test
    void guardsWithEqualAllowlistsAreEqual() {
        assertEquals(AddressGuard.denyInternal(List.of(entry("10.0.0.0/8"))), AddressGuard.denyInternal(List.of(entry("10.0.0.0/8"))));
        assertTrue(!AddressGuard.denyInternal(List.of()).equals(AddressGuard.UNRESTRICTED));
    }

    private static AllowedNetwork entry(String text) {
        return AllowedNetwork.parse(text).orElseThrow(() -> new AssertionError("not an entry: " + text));
    }
}
