/**
 * Rules over the resources of one program (provider/programRules.ts), applied by the resource
 * classes in the program process under the SDK's mocks: what a provider's check cannot see, as it
 * sees one resource at a time and not its name. A second IpAllowlist of one account is refused at
 * its declaration, naming the first, and never registered; two ScheduleOverrides of one layer whose
 * windows overlap are an error naming both that fails the program (overrides on a layer cannot
 * overlap: shared/api/NEWER.md), in a preview too once their values are known (that the error
 * fails a real preview: test/engine/cli.test.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { Provider } from "../../provider/account";
import { ProgramRuleError, programRuleFailure } from "../../provider/programRules";
import { IpAllowlist } from "../../resources/generated/ipAllowlist";
import { ScheduleOverride } from "../../resources/generated/scheduleOverride";

const registered: string[] = [];
const warnings: { message: string; resource?: pulumi.Resource }[] = [];
/** What the program failed with: a rule's error, raised where its values resolve. */
const errors: { message: string; name: string }[] = [];

/** A fresh program (a deployment of its own: the SDK's mocks make a new monitor). */
async function program(preview = false): Promise<void> {
  registered.length = 0;
  warnings.length = 0;
  errors.length = 0;
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args.name);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "rules",
    "dev",
    preview,
  );
}

beforeAll(() => {
  jest.spyOn(pulumi.log, "warn").mockImplementation(async (message, resource) => {
    warnings.push({ message, resource });
  });
  jest.spyOn(programRuleFailure, "raise").mockImplementation((error) => {
    errors.push({ message: error.message, name: error.name });
  });
});
afterAll(() => jest.restoreAllMocks());

/** Every registration made and every apply run (inputs of plain values resolve at once). */
const settled = async (...resources: pulumi.CustomResource[]) => {
  await Promise.all(resources.map((r) => new Promise((done) => r.urn.apply(done))));
  await new Promise((done) => setImmediate(done));
};

describe("IpAllowlist: the account has one", () => {
  const list = { enabled: true, allowlist: [{ value: "203.0.113.0/24", label: "Office" }] };

  test("a second one in a program is refused at its declaration, naming the first, and never registered", async () => {
    await program();
    const first = new IpAllowlist("office", list);
    let error: unknown;
    try {
      new IpAllowlist("office-again", list);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProgramRuleError);
    expect((error as Error).message).toBe(
      'IpAllowlist "office-again": the account has one IP allowlist, and IpAllowlist "office" of this program ' +
        "manages it already: declare it once (two resources would each rewrite the other's list on every `pulumi up --refresh`)",
    );
    expect((error as Error).stack).toBe(`ProgramRuleError: ${(error as Error).message}`);
    await settled(first);
    expect(registered).toEqual(["office"]);
  });

  test("one per account: two accounts' allowlists, and a read-only `get` beside the managed one, are fine", async () => {
    await program();
    const staging = new Provider("staging", { apiKey: "k-staging" });
    const made = [
      new IpAllowlist("main", list),
      new IpAllowlist("staging", list, { provider: staging }),
      IpAllowlist.get("as-it-is", "ip_allowlist"),
    ];
    await settled(...made);
    expect(registered.sort()).toEqual(["as-it-is", "main", "staging", "staging"]);
  });
});

describe("ScheduleOverride: two of one layer whose windows overlap", () => {
  const cover = (startAt: string, endAt: string, layerId: pulumi.Input<string> = "01LAYER") => ({
    scheduleId: "01SCHEDULE",
    rotationId: "primary",
    layerId,
    user: { email: "ada@example.com" },
    startAt,
    endAt,
  });

  test.each([false, true])("are an error naming both, failing the program (preview: %s)", async (preview) => {
    await program(preview);
    const easter = new ScheduleOverride(
      "easter",
      cover("2031-04-11T17:00:00+01:00", "2031-04-14T09:00:00+01:00"),
    );
    const monday = new ScheduleOverride(
      "easter-monday",
      cover("2031-04-14T00:00:00Z", "2031-04-15T00:00:00Z", pulumi.output("01LAYER")),
    );
    await settled(easter, monday);
    expect(errors.map((w) => w.message)).toEqual([
      'ScheduleOverride "easter-monday" (2031-04-14T00:00:00Z to 2031-04-15T00:00:00Z) overlaps ScheduleOverride ' +
        '"easter" (2031-04-11T17:00:00+01:00 to 2031-04-14T09:00:00+01:00) on layer 01LAYER of rotation primary of ' +
        "schedule 01SCHEDULE: overrides on a layer cannot overlap (the API takes the time over: the one written last " +
        "deletes the other, and every `pulumi up --refresh` would make it again, which takes the time back). Keep " +
        "the windows of one layer apart",
    ]);
    expect(errors[0]!.name).toBe("ProgramRuleError");
    expect(warnings).toEqual([]);
  });

  test("windows that only touch, another layer or another program: nothing said", async () => {
    await program();
    const made = [
      new ScheduleOverride("first", cover("2031-05-01T00:00:00Z", "2031-05-02T00:00:00Z")),
      new ScheduleOverride("next", cover("2031-05-02T00:00:00Z", "2031-05-03T00:00:00Z")),
      new ScheduleOverride("other-layer", cover("2031-05-01T00:00:00Z", "2031-05-03T00:00:00Z", "01OTHER")),
    ];
    await settled(...made);
    await program();
    const again = new ScheduleOverride("first", cover("2031-05-01T00:00:00Z", "2031-05-02T00:00:00Z"));
    await settled(again);
    expect(warnings).toEqual([]);
    expect(errors).toEqual([]);
  });
});
