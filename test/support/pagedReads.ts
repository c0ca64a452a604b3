/**
 * Reads by page (provider/pagedReads.ts) as a kind's tests check them: a refresh of the objects
 * reads by page in at most ⌈objects ÷ page size⌉ + 1 requests (objects: all of the kind the list
 * answers in the account, for the objects' scope) and reads back exactly what reads one by one do;
 * an object deleted out of band is still seen as gone.
 */
import type { IncidentProvider } from "../../provider/factory";
import { enablePagedReads, walkList } from "../../provider/pagedReads";
import type { Props } from "../../provider/spec";
import type { AlertEmulator } from "./alertEmulator";

export interface Managed {
  id: string;
  outs: Props;
}

export interface PagedReadCounts {
  /** Objects the list answers (the account's objects of the kind, in the objects' scope). */
  listed: number;
  /** ⌈listed ÷ page size⌉ + 1 (an unpaginated list is one page). */
  bound: number;
  /** The provider's requests for the refresh by page. */
  requests: number;
  /** The provider's requests for the refresh by page after one object was deleted out of band. */
  afterDeletion: number;
}

/** A refresh of every object, concurrently as the engine reads them (the read results' `props`, or `gone`). */
const refresh = (provider: IncidentProvider, objects: readonly Managed[]) =>
  Promise.all(
    objects.map(async (o) => {
      const read = await provider.read!(o.id, o.outs);
      return read.id === "" ? "gone" : read.props;
    }),
  );

/**
 * Checks reads by page for `objects` (all of one scope), then deletes `objects[gone]` out of band
 * with `remove` and checks the next run sees it gone. Leaves reads by page off.
 */
export async function expectReadsByPage(
  ae: AlertEmulator,
  provider: IncidentProvider,
  objects: readonly Managed[],
  remove: (o: Managed) => Promise<unknown>,
  gone = Math.floor(objects.length / 2),
): Promise<PagedReadCounts> {
  const list = provider.spec.list!;
  const scope = list.scope ? list.scope(objects[0]!.outs) : {};
  expect(scope).toBeDefined();
  try {
    enablePagedReads(false);
    const oneByOne = await refresh(provider, objects);
    expect(oneByOne).not.toContain("gone");

    const listed = (await walkList(ae.dashboard, list, scope)).length;
    const bound = (list.pageSize === undefined ? 1 : Math.ceil(listed / list.pageSize)) + 1;
    enablePagedReads(); // a new run
    let mark = ae.emu.requests.length;
    const paged = await refresh(provider, objects);
    const requests = ae.providerCalls(mark);
    expect(requests.length).toBeLessThanOrEqual(bound);
    expect(paged).toEqual(oneByOne);

    enablePagedReads(false);
    enablePagedReads(); // the next run
    await remove(objects[gone]!);
    mark = ae.emu.requests.length;
    const after = await refresh(provider, objects);
    const afterDeletion = ae.providerCalls(mark).length;
    // One more request: the GET of the object the pages do not hold.
    expect(afterDeletion).toBeLessThanOrEqual(bound + 1);
    expect(after).toEqual(oneByOne.map((props, i) => (i === gone ? "gone" : props)));
    return { listed, bound, requests: requests.length, afterDeletion };
  } finally {
    enablePagedReads(false);
  }
}
