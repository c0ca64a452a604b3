import { ApiError } from "../../provider/errors";
import {
  canonicalIpValue,
  IP_ALLOWLIST_ID,
  type IpAllowlistInputs,
  ipAllowlistFromApi,
  ipAllowlistInputs,
  ipAllowlistPayload,
  ipAllowlistProvider,
  isIpOrCidr,
} from "../../resources/ipAllowlist";
import { expectCheckFailure } from "../fixtures/settings/emulator";
import { useAlertEmulator } from "../support/alertEmulator";
import { expectWarned } from "../support/checkWarnings";
import { expectShape } from "../support/emulator";

const PATH = "/v1/ip_allowlists";
const parse = (raw: Record<string, unknown>): IpAllowlistInputs => ipAllowlistInputs.parse(raw);
const canonical = (args: IpAllowlistInputs) => ipAllowlistProvider.spec.canonical!(args);
const ae = useAlertEmulator({ strictPaths: /^\/v1\/ip_allowlists$/, dashboardRoles: ["global_access"] });
const show = async () => (await ae.ok("GET", PATH)).ip_allowlist;
/** A dashboard edit: the list as given, with the current version. */
const dashboardPut = async (allowlist: { value: string; label?: string }[], enabled: boolean) =>
  (await ae.ok("PUT", PATH, { allowlist, enabled, version: (await show()).version })).ip_allowlist;

describe("mapping", () => {
  test("the payload has the reference shape (with its version); an unset label is not sent", () => {
    const args = parse({
      allowlist: [{ value: "203.0.113.7", label: "Office" }, { value: "2001:db8::/48" }],
      enabled: true,
    });
    const payload = { ...ipAllowlistPayload(args), version: 3 };
    expect(payload).toEqual({
      allowlist: [{ value: "203.0.113.7", label: "Office" }, { value: "2001:db8::/48" }],
      enabled: true,
      version: 3,
    });
    expectShape("IPAllowlistsUpdateIPAllowlistPayloadV1", payload);
  });

  test("read-back: a set of {value, label}: the declared order and spelling are kept; an empty label is none", () => {
    const declared = parse({
      allowlist: [{ value: "2001:DB8:0:0::1" }, { value: "10.0.0.0/8", label: "LAN" }],
      enabled: true,
    });
    const live = {
      allowlist: [
        { value: "10.0.0.0/8", label: "LAN" },
        { value: "2001:db8::1", label: "" },
      ],
      enabled: true,
      version: 4,
    };
    expectShape("IPAllowlistV1", live);
    const read = ipAllowlistFromApi(live, declared);
    expect(read).toEqual(declared);
    // Another member, or another label, is a difference.
    const other = ipAllowlistFromApi(
      { ...live, allowlist: [...live.allowlist, { value: "192.0.2.9" }] },
      declared,
    );
    expect(canonical(other)).not.toEqual(canonical(declared));
    const relabelled = ipAllowlistFromApi(
      { ...live, allowlist: [{ value: "10.0.0.0/8", label: "VPN" }, { value: "2001:db8::1" }] },
      declared,
    );
    expect(canonical(relabelled)).not.toEqual(canonical(declared));
  });

  test("canonical: order carries no meaning, nor IPv6 spelling", () => {
    const a = parse({
      allowlist: [{ value: "192.0.2.1" }, { value: "2001:DB8::0:1/64", label: "x" }],
      enabled: false,
    });
    const b = parse({
      allowlist: [{ value: "2001:db8::1/64", label: "x" }, { value: "192.0.2.1" }],
      enabled: false,
    });
    expect(canonical(a)).toEqual(canonical(b));
  });
});

describe("normalisation vectors", () => {
  test.each([
    ["203.0.113.7", "203.0.113.7"],
    ["198.51.100.0/24", "198.51.100.0/24"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:db8:0::/048", "2001:db8::/48"],
    ["::FFFF:192.0.2.1", "::ffff:c000:201"],
    ["10.0.0.1/32", "10.0.0.1/32"], // a one-address prefix is not the address
    ["10.0.0.1/8", "10.0.0.1/8"], // host bits are kept as written
  ])("%s → %s", (value, expected) => {
    expect(isIpOrCidr(value)).toBe(true);
    expect(canonicalIpValue(value)).toBe(expected);
  });

  test.each([
    "",
    "10.0.0",
    "10.0.0.256",
    "010.0.0.1",
    "10.0.0.0/33",
    "2001:db8::/129",
    "10.0.0.0/",
    "host.example.com",
    "10.0.0.0/24/1",
  ])("%j is no address or prefix", (value) => expect(isIpOrCidr(value)).toBe(false));
});

describe("check (zero API calls)", () => {
  test.each([
    [{ allowlist: [] }, "enabled", /./],
    [{ enabled: false }, "allowlist", /./],
    [
      { allowlist: [{ value: "10.0.0.1" }, { value: "10.0.0.300" }], enabled: false },
      "allowlist",
      /allowlist\[1\]\.value.*IPv4 or IPv6/,
    ],
    [{ allowlist: [{ value: "10.0.0.0/40" }], enabled: false }, "allowlist", /allowlist\[0\]\.value/],
    [{ allowlist: [{ label: "no value" }], enabled: false }, "allowlist", /allowlist\[0\]\.value/],
    [{ allowlist: [{ value: "10.0.0.1", note: "x" }], enabled: false }, "allowlist", /note/],
    [{ allowlist: [], enabled: false, adoptId: "x" }, "adoptId", /whose id is "ip_allowlist"/],
    [{ allowlist: [], enabled: false, adoptId: "" }, "adoptId", /./],
  ])("%j fails at %s", async (inputs, property, reason) => {
    await expectCheckFailure(ae, ipAllowlistProvider.check!, inputs, property, reason);
  });

  // No published rule forbids these (issue 28): passed on, warned about at the input path.
  test.each([
    [
      { allowlist: [{ value: "2001:db8::1" }, { value: "2001:DB8:0::1", label: "again" }], enabled: false },
      "allowlist[1].value",
      /already allowed by allowlist\[0\]\.value/,
    ],
    [{ allowlist: [], enabled: true }, "enabled", /may lock everyone out/],
  ] as [
    Record<string, unknown>,
    string,
    RegExp,
  ][])("%j is passed on with a warning at %s", async (inputs, path, reason) => {
    await expectWarned(ipAllowlistProvider, inputs, path, reason);
  });

  test("an empty, disabled list is valid", async () => {
    expect((await ipAllowlistProvider.check!({}, { allowlist: [], enabled: false })).failures ?? []).toEqual(
      [],
    );
  });
});

describe("the emulator's family", () => {
  test("a PUT needs the current version (409 naming `version`), checks every value (422), bumps the version", async () => {
    const now = await show();
    expectShape("IPAllowlistV1", now);
    const stale = await ae.api("PUT", PATH, { allowlist: [], enabled: false, version: now.version + 7 });
    expect(stale.status).toBe(409);
    expect(JSON.stringify(stale.body)).toMatch(/"field":"version"/);
    const bad = await ae.api("PUT", PATH, {
      allowlist: [{ value: "10.0.0.1" }, { value: "nope" }],
      enabled: false,
      version: now.version,
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toMatch(/allowlist\.1\.value/);
    const saved = await dashboardPut([{ value: "192.0.2.44", label: "kept" }], false);
    expect(saved).toMatchObject({
      version: now.version + 1,
      allowlist: [{ value: "192.0.2.44", label: "kept" }],
    });
    expect(typeof saved.updated_at).toBe("string");
  });
});

describe("provider against the emulator", () => {
  test("create adopts (records `previous`) → read (no diff) → dashboard edit is drift → update → delete restores", async () => {
    await dashboardPut([{ value: "192.0.2.1", label: "before" }], false);
    const inputs = parse({
      allowlist: [{ value: "203.0.113.7", label: "Office" }, { value: "2001:DB8::/48" }],
      enabled: true,
    });
    const created = await ipAllowlistProvider.create!(inputs);
    expect(created.id).toBe(IP_ALLOWLIST_ID);
    expect(created.outs).toMatchObject({
      allowlist: inputs.allowlist,
      enabled: true,
      previous: { allowlist: [{ value: "192.0.2.1", label: "before" }], enabled: false },
    });
    expect(await show()).toMatchObject({ enabled: true, version: created.outs.version });

    const read = await ipAllowlistProvider.read!(created.id, created.outs);
    expect(read.id).toBe(IP_ALLOWLIST_ID);
    expect(read.props!.previous).toEqual(created.outs.previous);
    expect((await ipAllowlistProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);

    // Answered in another order and IPv6 spelling: no drift.
    await dashboardPut([{ value: "2001:db8::/48" }, { value: "203.0.113.7", label: "Office" }], true);
    const respelled = await ipAllowlistProvider.read!(created.id, read.props!);
    expect(respelled.props!.allowlist).toEqual(inputs.allowlist);
    expect((await ipAllowlistProvider.diff!(created.id, respelled.props!, inputs)).changes).toBe(false);

    // A dashboard edit is drift; the update (its state's version is stale: refused, read again,
    // written once more) puts the declaration back.
    await dashboardPut([{ value: "203.0.113.7", label: "Office" }], true);
    const drifted = await ipAllowlistProvider.read!(created.id, respelled.props!);
    expect((await ipAllowlistProvider.diff!(created.id, drifted.props!, inputs)).changes).toBe(true);
    await dashboardPut([{ value: "203.0.113.8" }], true); // after the refresh: the state's version is stale
    const mark = ae.emu.requests.length;
    const updated = await ipAllowlistProvider.update!(created.id, drifted.props!, inputs);
    expect(ae.providerCalls(mark)).toEqual([`PUT ${PATH} 409`, `GET ${PATH} 200`, `PUT ${PATH} 200`]);
    expect(updated.outs!.previous).toEqual(created.outs.previous);
    expect(ipAllowlistFromApi(await show(), inputs)).toEqual(inputs);

    await ipAllowlistProvider.delete!(created.id, updated.outs!);
    expect(await show()).toMatchObject({
      allowlist: [{ value: "192.0.2.1", label: "before" }],
      enabled: false,
    });
  });

  test("a second version conflict fails naming `version`; an answer lost and retried is no conflict", async () => {
    const inputs = parse({ allowlist: [{ value: "198.51.100.0/24", label: "VPN" }], enabled: true });
    const created = await ipAllowlistProvider.create!(inputs);
    const other = parse({ allowlist: [{ value: "198.51.100.0/24", label: "VPN (new)" }], enabled: true });
    ae.emu.faults.add({ method: "PUT", path: `^${PATH}$`, kind: "status", status: 409, count: 2 });
    const error = await ipAllowlistProvider.update!(created.id, created.outs, other).catch((e) => e);
    ae.emu.faults.clear();
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/version/);
    // The PUT committed, its answer lost: the client sends it again, the API refuses the version,
    // and the list already holds the declaration.
    ae.emu.faults.add({ method: "PUT", path: `^${PATH}$`, kind: "reset-after", count: 1 });
    const updated = await ipAllowlistProvider.update!(created.id, created.outs, other);
    ae.emu.faults.clear();
    expect(updated.outs!.allowlist).toEqual(other.allowlist);
    await ipAllowlistProvider.delete!(created.id, updated.outs!);
  });

  test("export: the account's one allowlist, adopted by its fixed id with zero writes; a destroy leaves it as it is", async () => {
    expect(ipAllowlistProvider.spec.notExported).toBeUndefined();
    // An untouched list (empty, off) is left out: nothing to manage.
    await dashboardPut([], false);
    expect(await ipAllowlistProvider.spec.listAll!({ client: ae.dashboard } as never)).toEqual([]);
    await dashboardPut([], true);
    expect(await ipAllowlistProvider.spec.listAll!({ client: ae.dashboard } as never)).toHaveLength(1);
    await dashboardPut([{ value: "192.0.2.5", label: "Office" }, { value: "2001:DB8::1" }], true);
    const [live, ...more] = await ipAllowlistProvider.spec.listAll!({ client: ae.dashboard } as never);
    expect(more).toEqual([]);
    expectShape("IPAllowlistV1", live);
    expect(ipAllowlistProvider.spec.idOf(live!)).toBe(IP_ALLOWLIST_ID);

    // What the export declares: the list as read, adopted.
    const declared = { ...ipAllowlistFromApi(live!, undefined), adoptId: IP_ALLOWLIST_ID };
    const checked = await ipAllowlistProvider.check!({}, declared);
    expect(checked.failures ?? []).toEqual([]);
    const mark = ae.emu.requests.length;
    const adopted = await ipAllowlistProvider.create!(checked.inputs);
    expect(ae.providerCalls(mark)).toEqual([`GET ${PATH} 200`]);
    expect(adopted.id).toBe(IP_ALLOWLIST_ID);
    const asRead = {
      allowlist: [{ value: "192.0.2.5", label: "Office" }, { value: "2001:DB8::1" }],
      enabled: true,
    };
    expect(adopted.outs).toMatchObject({ ...asRead, version: live!.version, previous: asRead });
    // Its first refresh stores the same; its destroy writes back the list as it was taken over.
    const read = await ipAllowlistProvider.read!(adopted.id, adopted.outs);
    expect(read.props!.previous).toEqual(asRead);
    expect((await ipAllowlistProvider.diff!(adopted.id, read.props!, checked.inputs)).changes).toBe(false);
    await ipAllowlistProvider.delete!(adopted.id, read.props!);
    expect(await show()).toMatchObject(asRead);
  });

  test("an adoption that differs writes once, keeping the list as read in `previous`, which its delete restores", async () => {
    const before = await dashboardPut([{ value: "192.0.2.6", label: "Before" }], false);
    const inputs = parse({
      allowlist: [{ value: "203.0.113.9", label: "Office" }],
      enabled: true,
      adoptId: IP_ALLOWLIST_ID,
    });
    const mark = ae.emu.requests.length;
    const adopted = await ipAllowlistProvider.create!(inputs);
    expect(ae.providerCalls(mark)).toEqual([`GET ${PATH} 200`, `PUT ${PATH} 200`]);
    expect(adopted.outs).toMatchObject({
      allowlist: inputs.allowlist,
      enabled: true,
      version: before.version + 1,
      previous: { allowlist: [{ value: "192.0.2.6", label: "Before" }], enabled: false },
    });
    await ipAllowlistProvider.delete!(adopted.id, adopted.outs);
    expect(await show()).toMatchObject({
      allowlist: [{ value: "192.0.2.6", label: "Before" }],
      enabled: false,
    });
  });

  test("an API error is not a version conflict: it is reported as it is", async () => {
    ae.emu.faults.add({ method: "PUT", path: `^${PATH}$`, kind: "status", status: 403, count: 1 });
    const error = await ipAllowlistProvider.create!(
      parse({ allowlist: [{ value: "192.0.2.77" }], enabled: false }),
    ).catch((e) => e);
    ae.emu.faults.clear();
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(403);
  });
});
