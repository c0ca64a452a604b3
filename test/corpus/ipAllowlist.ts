/** Bad inputs of IpAllowlist (issue 24): addresses and prefixes, repeats, a list that would lock everyone out. */
import type { BadInputCase } from "./types";

const ok = { value: "203.0.113.7", label: "Office" };

export const ipAllowlistCases: BadInputCase[] = [
  { kind: "IpAllowlist", title: "missing enabled", inputs: { allowlist: [ok] }, property: "enabled" },
  { kind: "IpAllowlist", title: "missing allowlist", inputs: { enabled: false }, property: "allowlist" },
  {
    kind: "IpAllowlist",
    title: "a host name is no address",
    inputs: { allowlist: [ok, { value: "vpn.example.com" }], enabled: true },
    property: "allowlist",
    reason: /allowlist\[1\]\.value/,
  },
  {
    kind: "IpAllowlist",
    title: "an IPv4 octet out of range",
    inputs: { allowlist: [{ value: "198.51.100.256" }], enabled: true },
    property: "allowlist",
    reason: /allowlist\[0\]\.value/,
  },
  {
    kind: "IpAllowlist",
    title: "an IPv4 prefix longer than 32",
    inputs: { allowlist: [{ value: "198.51.100.0/33" }], enabled: true },
    property: "allowlist",
    reason: /allowlist\[0\]\.value/,
  },
  {
    kind: "IpAllowlist",
    title: "an IPv6 prefix longer than 128",
    inputs: { allowlist: [{ value: "2001:db8::/130" }], enabled: true },
    property: "allowlist",
    reason: /allowlist\[0\]\.value/,
  },
  {
    kind: "IpAllowlist",
    title: "a value given twice (in two spellings)",
    inputs: { allowlist: [{ value: "2001:db8::1" }, ok, { value: "2001:DB8:0:0::1" }], enabled: true },
    property: "allowlist",
    outcome: "warning",
    warns: "allowlist[2].value",
    reason: /"2001:DB8:0:0::1" is already allowed by allowlist\[0\]\.value/,
  },
  {
    kind: "IpAllowlist",
    title: "enabled with nothing allowed (locks everyone out)",
    inputs: { allowlist: [], enabled: true },
    property: "enabled",
    outcome: "warning",
    warns: "enabled",
    reason:
      /an enabled allowlist with no entries may lock everyone out of the account: add the addresses to allow, or set enabled: false/,
  },
  {
    kind: "IpAllowlist",
    title: "enabled as text",
    inputs: { allowlist: [ok], enabled: "true" },
    property: "enabled",
  },
  {
    kind: "IpAllowlist",
    title: "unknown item property",
    inputs: { allowlist: [{ ...ok, description: "x" }], enabled: false },
    property: "allowlist",
  },
  {
    kind: "IpAllowlist",
    title: "adoptId naming another id (the account's one allowlist is ip_allowlist)",
    inputs: { allowlist: [ok], enabled: false, adoptId: "01ALLOWLIST" },
    property: "adoptId",
    reason: /whose id is "ip_allowlist"/,
  },
];
