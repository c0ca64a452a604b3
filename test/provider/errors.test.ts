/**
 * Errors a user acts on (provider/errors.ts `IncidentError`: ApiError, LookupError,
 * SettingsError, MissingCredentialsError) print as their name and message alone: no stack frames, no dump of
 * their properties, however Node or the Pulumi SDK prints them (util.inspect for an unhandled
 * rejection, `stack` for a diagnostic), and a message rewritten on the way (the SDK prefixes the
 * property it was serializing) is printed rewritten.
 */
import { inspect } from "node:util";
import { MissingCredentialsError } from "../../provider/credentials";
import { ApiError, LookupError, SettingsError } from "../../provider/errors";

const errors = () => [
  new LookupError("getUser", 'no user with e-mail "nobody@example.com"'),
  new MissingCredentialsError(),
  new SettingsError("incident:logLevel", 'incident:logLevel must be one of warn, info, debug (got "loud")'),
  new ApiError({ operation: "list users", status: 401, type: "authentication_error", details: [] }),
];

test.each(
  errors().map((e) => [e.name, e]),
)("%s: one line, whether inspected or asked for its stack", (_name, error) => {
  const line = `${error.name}: ${error.message}`;
  expect(error.stack).toBe(line);
  expect(inspect(error)).toBe(line);
  // As an unhandled rejection carries it, with the promise attached by the SDK.
  Object.assign(error, { promise: Promise.resolve() });
  expect(inspect(error, { colors: true })).toBe(line);
  expect(line).not.toContain("\n");
});

test("a message rewritten on the way is the one printed", () => {
  const error = new LookupError("getUser", "no user");
  error.message = `error serializing property "path": ${error.message}`;
  expect(inspect(error)).toBe('LookupError: error serializing property "path": getUser: no user');
  expect(error.stack).toBe('LookupError: error serializing property "path": getUser: no user');
});
