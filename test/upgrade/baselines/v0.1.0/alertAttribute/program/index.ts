/**
 * Lifecycle fixture: one alert attribute. Config `variant`: "base" (default) or "updated" (renames
 * it, changes the emoji and makes it required: the same attribute, updated in place). Config
 * `adoptId`: adopt an existing alert attribute instead of creating one.
 */
import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

const config = new pulumi.Config();
const variant = config.get("variant") ?? "base";

const attribute = new incident.AlertAttribute("team", {
  name: variant === "updated" ? "Lifecycle team (updated)" : "Lifecycle team",
  adoptId: config.get("adoptId"),
  type: "String",
  array: true,
  required: variant === "updated",
  // Declared with colons; the API stores it without.
  emoji: variant === "updated" ? ":wrench:" : ":busts_in_silhouette:",
});

export const attributeId = attribute.id;
