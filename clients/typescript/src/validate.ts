/**
 * Checks a decoded answer against the shape the schema gives it, so that a service (or
 * a proxy) answering something else is an `InvalidResponseError` at the call, not an
 * `undefined` deep inside the caller's code.
 *
 * Fields the schema does not name are allowed: a newer service may add some, and an
 * older client keeps working. Problems name paths and expected types, never values
 * (which may be memory text).
 */
import { COMPONENTS } from "./generated/schema.js";

export interface Shape {
  readonly ref?: string;
  readonly allOf?: readonly Shape[];
  readonly type?: string;
  readonly format?: string;
  readonly nullable?: boolean;
  readonly enum?: readonly unknown[];
  readonly items?: Shape;
  readonly properties?: { readonly [name: string]: Shape };
  readonly required?: readonly string[];
  readonly additionalProperties?: true | Shape;
}

const components: { readonly [name: string]: Shape } = COMPONENTS;
// Enough problems to see what went wrong; a wholly different answer would list hundreds.
const MAX_PROBLEMS = 10;

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function check(value: unknown, shape: Shape, path: string, problems: string[]): void {
  if (problems.length >= MAX_PROBLEMS) return;
  if (shape.ref !== undefined) {
    const target = components[shape.ref];
    if (target === undefined) {
      problems.push(`${path}: unknown component ${shape.ref}`);
      return;
    }
    check(value, target, path, problems);
    return;
  }
  if (value === null) {
    if (!shape.nullable && (shape.type !== undefined || shape.allOf !== undefined || shape.enum !== undefined)) {
      problems.push(`${path}: null where ${shape.type ?? "a value"} is required`);
    }
    return;
  }
  for (const part of shape.allOf ?? []) check(value, part, path, problems);
  if (shape.enum !== undefined && !shape.enum.includes(value)) {
    problems.push(`${path}: not one of the schema's values`);
    return;
  }
  switch (shape.type) {
    case undefined:
      return;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) problems.push(`${path}: ${kindOf(value)}, not an integer`);
      return;
    case "number":
      if (typeof value !== "number") problems.push(`${path}: ${kindOf(value)}, not a number`);
      return;
    case "string":
      if (typeof value !== "string") {
        problems.push(`${path}: ${kindOf(value)}, not a string`);
      } else if (shape.format === "date-time" && Number.isNaN(Date.parse(value))) {
        problems.push(`${path}: not a date-time`);
      }
      return;
    case "boolean":
      if (typeof value !== "boolean") problems.push(`${path}: ${kindOf(value)}, not a boolean`);
      return;
    case "array":
      if (!Array.isArray(value)) {
        problems.push(`${path}: ${kindOf(value)}, not an array`);
        return;
      }
      if (shape.items !== undefined) {
        const items = shape.items;
        value.forEach((item, index) => check(item, items, `${path}[${index}]`, problems));
      }
      return;
    case "object": {
      if (kindOf(value) !== "object") {
        problems.push(`${path}: ${kindOf(value)}, not an object`);
        return;
      }
      const record = value as Record<string, unknown>;
      for (const name of shape.required ?? []) {
        if (!Object.hasOwn(record, name)) problems.push(`${path}.${name}: missing`);
      }
      for (const [name, property] of Object.entries(shape.properties ?? {})) {
        if (Object.hasOwn(record, name)) check(record[name], property, `${path}.${name}`, problems);
      }
      const values = shape.additionalProperties;
      if (values !== undefined && values !== true) {
        for (const [name, item] of Object.entries(record)) {
          if (!Object.hasOwn(shape.properties ?? {}, name)) check(item, values, `${path}.${name}`, problems);
        }
      }
      return;
    }
    default:
      problems.push(`${path}: the schema's type ${shape.type} is not known to the client`);
  }
}

/** Where `value` breaks `shape` (empty when it does not). */
export function problemsOf(value: unknown, shape: Shape): string[] {
  const problems: string[] = [];
  check(value, shape, "$", problems);
  return problems;
}
