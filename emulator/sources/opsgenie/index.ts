/**
 * The Opsgenie REST API v2 emulator's vendor: its families (every `defineSourceFamily` value of this
 * directory), its shapes (shapes.json: opsgenie/opsgenie-oas), its authentication and its errors.
 * - Auth (`securityDefinitions.GenieKey`: an API key in the `Authorization` header; Opsgenie's API
 *   docs: `Authorization: GenieKey <key>`); anything else is a 401.
 * - Errors (`ErrorResponse`): `{message, took, requestId}`.
 */
import { discoverSourceFamilies, type SourceVendor } from "../family";
import type { VendorShapes } from "../shapes";
import shapesJson from "./shapes.json";
import type { OpsgenieAccount } from "./shared/api";

export type { OpsgenieAccount } from "./shared/api";

export const OPSGENIE_SHAPES = shapesJson as unknown as VendorShapes;

export const OPSGENIE: SourceVendor<OpsgenieAccount> = {
  name: "opsgenie",
  document: OPSGENIE_SHAPES.source,
  families: discoverSourceFamilies(__dirname),
  authorization: (apiKey) => `GenieKey ${apiKey}`,
  errorBody: (_status, message, requestId) => ({ message, took: 0.0, requestId }),
};
