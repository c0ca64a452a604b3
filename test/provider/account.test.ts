/**
 * The account object (provider/account.ts) without an engine: what `new incident.Provider` registers
 * (the package that serves dynamic resources, its key a secret, settings named as the stack config
 * names them), a lookup that names it asks that account only (never the stack's key or the
 * environment's), and a host configured by one ignores the environment's INCIDENT_* settings.
 * That the engine routes `{ provider }` resources to a host of their own is the engine lane's
 * (test/engine/twoAccounts.test.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { accountSettings, Provider } from "../../provider/account";
import { configure, resolveCredentials, setCredentials } from "../../provider/credentials";
import { getAlertRoute } from "../../resources/generated/alertRoute";
import { getAlertSource } from "../../resources/generated/alertSource";
import { getCatalogTypeAttribute } from "../../resources/generated/catalogTypeAttribute";
import { getCustomFieldOption } from "../../resources/generated/customFieldOption";
import { getUser, getUsers } from "../../resources/generated/lookups";
import { getMaintenanceWindow } from "../../resources/generated/maintenanceWindow";
import { getScheduleSyncTarget } from "../../resources/generated/scheduleSyncTarget";
import { getWorkflow } from "../../resources/generated/workflow";
import { startTestEmulator, type TestEmulator } from "../support/emulator";

const registered: { type: string; name: string; inputs: any }[] = [];
let emu: TestEmulator;

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: `id-${args.name}`, state: args.inputs };
      },
      call: () => ({}),
    },
    "proj",
    "stack",
    false,
  );
  emu = await startTestEmulator({ apiKey: "account-test-key-5d1c" });
});
afterAll(async () => {
  await emu.dispose();
  setCredentials({});
});

const settled = (r: pulumi.Resource) => new Promise((done) => r.urn.apply(done));

test("registers a provider of the dynamic resources' package, with the key a secret and settings as config names them", async () => {
  const prod = new Provider("prod", {
    apiKey: "k-prod",
    baseUrl: "https://eu.example.com",
    requestTimeout: 5,
  });
  await settled(prod);
  const found = registered.find((r) => r.name === "prod")!;
  expect(found.type).toBe("pulumi:providers:pulumi-nodejs");
  expect(found.inputs).toMatchObject({
    // The key as a secret on the wire, however it was given (a plain string here).
    "incident:apiKey": {
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      value: "k-prod",
    },
    "incident:baseUrl": "https://eu.example.com",
    "incident:requestTimeout": "5",
    "incident:account": "prod",
  });
  expect(await pulumi.isSecret(accountSettings(prod))).toBe(true);
});

test("a lookup naming an account asks that account, with its key, and not the stack's or the environment's", async () => {
  const account = new Provider("lookups", { apiKey: "account-test-key-5d1c", baseUrl: emu.url });
  const saved = process.env.INCIDENT_API_KEY;
  process.env.INCIDENT_API_KEY = "ENVIRONMENT-KEY-NOT-THIS-ACCOUNT";
  try {
    const mark = emu.requests.length;
    const user = await getUser({ email: "ada@example.com" }, { provider: account });
    expect(user.id).toBe("01USERADA");
    const asked = emu.requests.slice(mark);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((r) => r.status === 200)).toBe(true);

    // Without the account's key, the environment's would be refused: the lookup names the account's.
    const wrong = new Provider("wrong-key", { apiKey: "not-a-key", baseUrl: emu.url });
    await expect(getUser({ email: "ada@example.com" }, { provider: wrong })).rejects.toThrow(
      /401|rejected|key/i,
    );
  } finally {
    if (saved === undefined) delete process.env.INCIDENT_API_KEY;
    else process.env.INCIDENT_API_KEY = saved;
  }
});

test("the kinds' by-name lookups and getUsers take the account too: each asks it, and fails there as its own lookup", async () => {
  const account = new Provider("lookups-each", { apiKey: "account-test-key-5d1c", baseUrl: emu.url });
  const opts = { provider: account };
  const saved = process.env.INCIDENT_API_KEY;
  process.env.INCIDENT_API_KEY = "ENVIRONMENT-KEY-NOT-THIS-ACCOUNT";
  try {
    const mark = emu.requests.length;
    // Nothing of these exists in the account: each answer is the lookup's own "none", not a 401.
    const none: [() => Promise<unknown>, RegExp][] = [
      [() => getAlertSource({ name: "None" }, opts), /^getAlertSource: no alert source named "None"$/],
      [() => getAlertRoute({ name: "None" }, opts), /^getAlertRoute: no alert route named "None"$/],
      [() => getWorkflow({ name: "None" }, opts), /^getWorkflow: no workflow named "None"$/],
      [
        () => getMaintenanceWindow({ name: "None" }, opts),
        /^getMaintenanceWindow: no maintenance window named/,
      ],
      [
        () => getCustomFieldOption({ customFieldId: "01NOFIELD", value: "x" }, opts),
        /^getCustomFieldOption: no custom field with id "01NOFIELD"$/,
      ],
      [
        () => getCatalogTypeAttribute({ catalogTypeId: "01NOTYPE", name: "x" }, opts),
        /^getCatalogTypeAttribute: no catalog type with id "01NOTYPE"$/,
      ],
      [
        () => getScheduleSyncTarget({ slackUserGroupId: "S0NONE" }, opts),
        /^getScheduleSyncTarget: no schedule sync target syncs Slack user group "S0NONE"$/,
      ],
      [
        () => getUsers({ emails: ["nobody@example.com"] }, opts),
        /^getUsers: no user with e-mail "nobody@example.com"/,
      ],
    ];
    for (const [answer, message] of none) {
      const error = (await answer().catch((e: unknown) => e)) as Error;
      expect(error.name).toBe("LookupError");
      expect(error.message).toMatch(message);
    }
    const found = await getUsers(
      { emails: ["ada@example.com", "nobody@example.com"], skipMissing: true },
      opts,
    );
    expect(found.users.map((u) => u.id)).toEqual(["01USERADA"]);
    expect(found.missing).toEqual(["nobody@example.com"]);
    // Every request made with the account's key (the environment's would be refused).
    expect(emu.requests.slice(mark).filter((r) => r.status === 401)).toEqual([]);
  } finally {
    if (saved === undefined) delete process.env.INCIDENT_API_KEY;
    else process.env.INCIDENT_API_KEY = saved;
  }
});

test("a lookup given something that is not an account says so", async () => {
  await expect(getUser({ email: "ada@example.com" }, { provider: {} as Provider })).rejects.toThrow(
    /not an incident\.Provider/,
  );
});

test("a host configured by an account object ignores the environment's INCIDENT_* settings", () => {
  const env = { INCIDENT_API_KEY: "env-key", INCIDENT_BASE_URL: "https://env.example.com" };
  const config = (values: Record<string, string>) => ({ config: { get: (k: string) => values[k] } });

  configure(config({ "incident:apiKey": "stack-key" }));
  expect(resolveCredentials(env)).toMatchObject({ apiKey: "stack-key", baseUrl: "https://env.example.com" });

  configure(config({ "incident:apiKey": "account-key", "incident:account": "prod" }));
  expect(resolveCredentials(env)).toMatchObject({
    apiKey: "account-key",
    baseUrl: "https://api.incident.io",
  });
});
