import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiClient } from "../../provider/client";
import { ENV_API_KEY, ENV_BASE_URL } from "../../provider/credentials";
import { findCustomFieldByName, getCustomField, getCustomFieldOutput } from "../../resources/customField";
import {
  findUserByEmail,
  findUserById,
  findUsersByEmail,
  getUser,
  getUsers,
  getUsersOutput,
} from "../../resources/lookups";
import { startTestEmulator, type TestEmulator } from "../support/emulator";

/**
 * A stub of the two list endpoints the lookups read (`GET /v2/users`, paginated with `after`, and
 * `GET /v2/custom_fields`, unpaginated), recording every request.
 */
const users = [
  { id: "u1", name: "Lisa", email: "lisa@example.com", role: "owner", slack_user_id: "U1" },
  { id: "u2", name: "Ola", email: "ola@example.com", role: "responder" },
  { id: "u3", name: "Dup A", email: "dup@example.com", role: "viewer" },
  { id: "u4", name: "Dup B", email: "dup@example.com", role: "viewer" },
];
const fields = [
  {
    id: "cf1",
    name: "Affected Team",
    description: "Which team",
    field_type: "single_select",
    created_at: "2024-01-01T00:00:00Z",
    updated_at: "2024-01-02T00:00:00Z",
  },
];
const seen: string[] = [];
let server: Server;
let baseUrl: string;

function handle(req: IncomingMessage): { status: number; body: unknown } {
  const url = new URL(req.url ?? "/", "http://x");
  seen.push(`${req.method} ${url.pathname}${url.search}`);
  if (req.headers.authorization !== "Bearer test-key") return { status: 401, body: { errors: [] } };
  if (url.pathname === "/v2/users") {
    // Ignores the email filter on purpose (the lookup must match again), pages of 1.
    const after = url.searchParams.get("after");
    const start = after ? users.findIndex((u) => u.id === after) + 1 : 0;
    const page = users.slice(start, start + 1);
    const next = start + 1 < users.length ? page[0]?.id : undefined;
    return {
      status: 200,
      body: { users: page, pagination_meta: { page_size: 1, ...(next ? { after: next } : {}) } },
    };
  }
  if (url.pathname === "/v2/custom_fields") return { status: 200, body: { custom_fields: fields } };
  return {
    status: 404,
    body: { type: "not_found", status: 404, errors: [{ code: "not_found", message: "no" }] },
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const { status, body } = handle(req);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  seen.length = 0;
});

const client = () => new ApiClient({ apiKey: "test-key", baseUrl });

describe("getUser({email})", () => {
  test("finds the user by e-mail, case-insensitively, across pages, with GET /v2/users?email=…", async () => {
    const user = await findUserByEmail(client(), "OLA@example.com");
    expect(user).toEqual({
      id: "u2",
      name: "Ola",
      email: "ola@example.com",
      role: "responder",
      slackUserId: undefined,
      isActive: true,
    });
    expect(seen[0]).toMatch(/^GET \/v2\/users\?/);
    expect(seen[0]).toContain("email=OLA%40example.com");
    // Deactivated users too (someone who left is still named by old rotas).
    expect(seen[0]).toContain("include_inactive=true");
    expect(seen.every((s) => s.startsWith("GET "))).toBe(true);
  });

  test("maps slack_user_id", async () => {
    expect((await findUserByEmail(client(), "lisa@example.com")).slackUserId).toBe("U1");
  });

  test("no match and several matches fail, naming the e-mail", async () => {
    await expect(findUserByEmail(client(), "nobody@example.com")).rejects.toThrow(
      'getUser: no user with e-mail "nobody@example.com"',
    );
    await expect(findUserByEmail(client(), "dup@example.com")).rejects.toThrow(/2 users have e-mail.*u3, u4/);
  });

  test("bad arguments fail before any request", async () => {
    await expect(getUser({ email: "not-an-email" })).rejects.toThrow(
      "getUser: email: must be an e-mail address",
    );
    await expect(getUser({ email: "" } as never)).rejects.toThrow("getUser: email:");
    expect(seen).toEqual([]);
  });

  test("getUser reads with the program's credentials (environment fallback)", async () => {
    process.env[ENV_API_KEY] = "test-key";
    process.env[ENV_BASE_URL] = baseUrl;
    try {
      expect((await getUser({ email: "lisa@example.com" })).id).toBe("u1");
    } finally {
      delete process.env[ENV_API_KEY];
      delete process.env[ENV_BASE_URL];
    }
  });
});

describe("getUsers({emails})", () => {
  const ids = (r: { users: { id: string }[] }) => r.users.map((u) => u.id);

  test("finds every user in the order given, case-insensitively, in one walk of the list however many e-mails", async () => {
    const found = await findUsersByEmail(client(), {
      emails: ["OLA@example.com", "lisa@example.com", "ola@example.com"],
      skipMissing: false,
    });
    expect(ids(found)).toEqual(["u2", "u1", "u2"]);
    expect(found.users[1]).toEqual({
      id: "u1",
      name: "Lisa",
      email: "lisa@example.com",
      role: "owner",
      slackUserId: "U1",
      isActive: true,
    });
    expect(found.missing).toEqual([]);
    // Pages of one user: four requests for four users, deactivated users included.
    expect(seen).toHaveLength(4);
    expect(seen.every((s) => s.startsWith("GET /v2/users?include_inactive=true"))).toBe(true);
  });

  test("every e-mail that matches no user is named in one error; skipMissing leaves them out and lists them", async () => {
    const emails = ["nobody@example.com", "lisa@example.com", "none@example.com"];
    await expect(findUsersByEmail(client(), { emails, skipMissing: false })).rejects.toThrow(
      'getUsers: no user with e-mail "nobody@example.com", "none@example.com" (skipMissing: true leaves them out)',
    );
    const skipped = await findUsersByEmail(client(), { emails, skipMissing: true });
    expect(ids(skipped)).toEqual(["u1"]);
    expect(skipped.missing).toEqual(["nobody@example.com", "none@example.com"]);
  });

  test("an e-mail several users share fails even with skipMissing, naming their ids, with the missing ones", async () => {
    await expect(
      findUsersByEmail(client(), { emails: ["dup@example.com", "nobody@example.com"], skipMissing: false }),
    ).rejects.toThrow(
      'getUsers: no user with e-mail "nobody@example.com" (skipMissing: true leaves it out); several users have e-mail "dup@example.com" (u3, u4)',
    );
    await expect(
      findUsersByEmail(client(), { emails: ["dup@example.com", "nobody@example.com"], skipMissing: true }),
    ).rejects.toThrow('getUsers: several users have e-mail "dup@example.com" (u3, u4)');
  });

  test("bad arguments fail before any request; an empty list asks nothing", async () => {
    await expect(getUsers({ emails: ["lisa@example.com", "not-an-email"] })).rejects.toThrow(
      "getUsers: emails[1]: must be an e-mail address",
    );
    await expect(getUsers({ emails: "lisa@example.com" } as never)).rejects.toThrow("getUsers: emails:");
    await expect(getUsers({ emails: [], skipMissing: "yes" } as never)).rejects.toThrow(
      "getUsers: skipMissing:",
    );
    expect(await findUsersByEmail(client(), { emails: [], skipMissing: false })).toEqual({
      users: [],
      missing: [],
    });
    expect(seen).toEqual([]);
  });

  test("getUsersOutput resolves through an Output, with the program's credentials", async () => {
    process.env[ENV_API_KEY] = "test-key";
    process.env[ENV_BASE_URL] = baseUrl;
    try {
      const out = getUsersOutput({ emails: ["lisa@example.com", "ghost@example.com"], skipMissing: true });
      const found = await new Promise<{ users: { id: string }[]; missing: string[] }>((resolve) =>
        out.apply(resolve),
      );
      expect(ids(found)).toEqual(["u1"]);
      expect(found.missing).toEqual(["ghost@example.com"]);
    } finally {
      delete process.env[ENV_API_KEY];
      delete process.env[ENV_BASE_URL];
    }
  });
});

describe("getCustomField({name})", () => {
  test("finds the field by exact name with GET /v2/custom_fields", async () => {
    expect(await findCustomFieldByName(client(), "Affected Team")).toEqual({
      id: "cf1",
      name: "Affected Team",
      description: "Which team",
      fieldType: "single_select",
      catalogTypeId: undefined,
      createdAt: "2024-01-01T00:00:00Z",
      updatedAt: "2024-01-02T00:00:00Z",
    });
    expect(seen).toEqual(["GET /v2/custom_fields"]);
  });

  test("a near miss is suggested; no match fails", async () => {
    await expect(findCustomFieldByName(client(), "affected team")).rejects.toThrow(
      'getCustomField: no custom field named "affected team" (did you mean "Affected Team"?)',
    );
    await expect(findCustomFieldByName(client(), "Nope")).rejects.toThrow('no custom field named "Nope"');
  });

  test("bad arguments fail before any request; unknown argument names are refused", async () => {
    await expect(getCustomField({ name: "" })).rejects.toThrow("getCustomField: name: must not be empty");
    await expect(getCustomField({ name: "x", id: "y" } as never)).rejects.toThrow("getCustomField");
    expect(seen).toEqual([]);
  });

  test("getCustomFieldOutput resolves through an Output", async () => {
    process.env[ENV_API_KEY] = "test-key";
    process.env[ENV_BASE_URL] = baseUrl;
    try {
      const out = getCustomFieldOutput({ name: "Affected Team" });
      const id = await new Promise<string>((resolve) => out.apply((f) => resolve(f.id)));
      expect(id).toBe("cf1");
    } finally {
      delete process.env[ENV_API_KEY];
      delete process.env[ENV_BASE_URL];
    }
  });
});

describe("getUser and deactivated users (against the emulator, which seeds one)", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(async () => {
    await emu.dispose();
  });
  const emulated = () => new ApiClient({ apiKey: emu.apiKey, baseUrl: emu.url });

  test("someone who left is found by e-mail and by id, with isActive false; an active user has isActive true", async () => {
    // The list hides deactivated users unless asked.
    expect((await emu.ok("GET", "/v2/users?email=fay%40example.com")).users).toEqual([]);
    const fay = await findUserByEmail(emulated(), "Fay@example.com");
    expect(fay).toMatchObject({ id: "01USERFAY", email: "fay@example.com", isActive: false });
    expect(await findUserById(emulated(), "01USERFAY")).toMatchObject({ isActive: false });
    expect(await findUserByEmail(emulated(), "ada@example.com")).toMatchObject({ isActive: true });
    expect(emu.responseProblems).toEqual([]);
  });

  test("getUsers finds someone who left too (isActive false), beside active users, in the order given", async () => {
    const found = await findUsersByEmail(emulated(), {
      emails: ["fay@example.com", "Ada@Example.com"],
      skipMissing: false,
    });
    expect(found.users).toEqual([
      expect.objectContaining({ id: "01USERFAY", email: "fay@example.com", isActive: false }),
      expect.objectContaining({ id: "01USERADA", email: "ada@example.com", isActive: true }),
    ]);
    await expect(
      findUsersByEmail(emulated(), { emails: ["fay@example.com", "gone@example.com"], skipMissing: false }),
    ).rejects.toThrow('getUsers: no user with e-mail "gone@example.com"');
    expect(emu.responseProblems).toEqual([]);
  });
});
