/**
 * The families the emulator serves, in registration order. To add one: write
 * `families/<camelName>.ts` exporting a `defineFamily(...)` value and list it here
 * (see ../README.md "Adding a family").
 */
import type { FamilyModule } from "../family";
import { apiKeys } from "./apiKeys";
import { customFieldOptions } from "./customFieldOptions";
import { customFields } from "./customFields";
import { identity } from "./identity";
import { teams } from "./teams";
import { users } from "./users";

export const FAMILIES: readonly FamilyModule[] = [
  users,
  teams,
  identity,
  apiKeys,
  customFields,
  customFieldOptions,
];
