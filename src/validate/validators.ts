import type { ErrorObject } from "ajv";
import type { SchemaSet } from "./schema/set.js";

/** A compiled validator, precompiled (ajv standalone) or compiled at run time: ajv's interface. */
export type ValidateFn = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** A compiled schema set, ready for events. */
export interface Validators {
  /** Validators by event `type`; a type not here (or an event without one) goes to `entry`. */
  byType: ReadonlyMap<string, ValidateFn>;
  entry: ValidateFn;
  /** The event types the schemas know; undefined when they do not say (no unknown-type findings then). */
  types?: ReadonlySet<string>;
  /** The tool kinds the schemas know; undefined when they do not say (no unknown-kind findings then). */
  toolKinds?: ReadonlySet<string>;
  /** The schema files (for --strict's field walk); the bundled ones are read from disk only when asked. */
  schemaSet(): SchemaSet;
}
