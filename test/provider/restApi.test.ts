import { restApi } from "../../provider/restApi";
import type { ApiContext } from "../../provider/spec";

/** A client that records every call and answers the object under `thing`. */
function recordingContext() {
  const calls: string[] = [];
  const answer = (method: string) => async (path: string, operation: string, body?: unknown) => {
    calls.push(`${method} ${path} (${operation})${body === undefined ? "" : ` ${JSON.stringify(body)}`}`);
    return method === "DELETE" ? undefined : { thing: { id: "T 1", name: "x" } };
  };
  const client = { post: answer("POST"), get: answer("GET"), put: answer("PUT"), delete: answer("DELETE") };
  return { calls, ctx: { client } as unknown as ApiContext };
}

test("create posts the payload to the collection; read, update and delete address the object by its escaped id; each answers the object under its key", async () => {
  const api = restApi<{ name: string }, { id: string; name: string }>({
    collection: "/v2/things",
    key: "thing",
    noun: "thing",
    payload: (args) => ({ display_name: args.name }),
  });
  const { calls, ctx } = recordingContext();
  expect(await api.create(ctx, { name: "A" })).toEqual({ live: { id: "T 1", name: "x" } });
  expect(await api.read(ctx, "T 1", undefined)).toEqual({ id: "T 1", name: "x" });
  expect(await api.update(ctx, "T 1", { name: "B" }, {})).toEqual({ live: { id: "T 1", name: "x" } });
  await api.delete(ctx, "T 1", {});
  expect(calls).toEqual([
    'POST /v2/things (create thing) {"display_name":"A"}',
    "GET /v2/things/T%201 (show thing)",
    'PUT /v2/things/T%201 (update thing) {"display_name":"B"}',
    "DELETE /v2/things/T%201 (delete thing)",
  ]);
});
