/**
 * The PagerDuty REST API v2 emulator's vendor: its families (every `defineSourceFamily` value of
 * this directory), its shapes (shapes.json: PagerDuty/api-schema `reference/REST/openapiv3.json`),
 * its authentication and its errors.
 * - Auth (the document's `securitySchemes.api_key`): "The API Key with format `Token token=<API_KEY>`"
 *   in the `Authorization` header; anything else is a 401.
 * - Errors (the document's shared error response): `{"error": {"message", "code", "errors"}}`
 *   ("Generic error response from the PagerDuty API"; `{"message":"Not Found","code":2100}` is the
 *   document's example). **Assumed**: the codes of other errors (left out: not in the document).
 */
import { discoverSourceFamilies, type SourceVendor } from "../family";
import type { VendorShapes } from "../shapes";
import shapesJson from "./shapes.json";
import type { PagerDutyAccount } from "./shared/api";

export type { PagerDutyAccount } from "./shared/api";

export const PAGERDUTY_SHAPES = shapesJson as unknown as VendorShapes;

export const PAGERDUTY: SourceVendor<PagerDutyAccount> = {
  name: "pagerduty",
  document: PAGERDUTY_SHAPES.source,
  families: discoverSourceFamilies(__dirname),
  authorization: (apiKey) => `Token token=${apiKey}`,
  errorBody: (status, message) => ({
    error: { message, ...(status === 404 ? { code: 2100 } : {}) },
  }),
};
