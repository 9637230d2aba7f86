// The client's generated modules, rendered from the OpenAPI document the service serves
// (with every surface on): `src/generated/api.ts`, the request and response types
// (openapi-typescript), and `src/generated/schema.ts`, what the client checks at run
// time (each operation's method, path, parameters and answer, and the shape of every
// component). The schema test renders them again from the live service and fails when
// the committed ones differ.
import openapiTS, { astToString } from "openapi-typescript";

export const API_PREFIX = "/api/v1";

const BANNER =
  "// Generated from the service's OpenAPI document by `npm run generate`; do not edit.\n" +
  "// The schema test fails when this file differs from what the live service serves.\n";

function refName(ref) {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

// What validating an answer needs of a schema object, in a stable key order.
function shape(schema) {
  if (schema.$ref) return { ref: refName(schema.$ref) };
  const out = {};
  if (schema.allOf) out.allOf = schema.allOf.map(shape);
  if (schema.type) out.type = schema.type;
  if (schema.format === "date-time") out.format = schema.format;
  if (schema.nullable) out.nullable = true;
  if (schema.enum) out.enum = [...schema.enum];
  if (schema.items) out.items = shape(schema.items);
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, shape(property)]),
    );
    out.required = [...(schema.required ?? [])].sort();
  }
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    const values = schema.additionalProperties;
    out.additionalProperties = values === true || Object.keys(values).length === 0 ? true : shape(values);
  }
  return out;
}

export function operationsOf(document) {
  const operations = {};
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      const query = parameters.filter((p) => p.in === "query");
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      const [status, answer] = Object.entries(operation.responses).find(([code]) => code.startsWith("2"));
      operations[operation.operationId] = {
        method: method.toUpperCase(),
        path: path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        query: query.map((p) => p.name).sort(),
        requiredQuery: query.filter((p) => p.required).map((p) => p.name).sort(),
        body: body ? refName(body.$ref) : null,
        status: Number(status),
        answer: shape(answer.content["application/json"].schema),
      };
    }
  }
  return Object.fromEntries(Object.entries(operations).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function componentsOf(document) {
  const schemas = document.components.schemas;
  return Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((name) => [name, shape(schemas[name])]),
  );
}

export async function render(document) {
  const types = astToString(await openapiTS(document, { alphabetize: true, defaultNonNullable: false }));
  const operations = operationsOf(document);
  const components = componentsOf(document);
  const runtime =
    BANNER +
    "\n" +
    `export const OPERATIONS = ${JSON.stringify(operations, null, 2)} as const;\n\n` +
    `export const COMPONENTS = ${JSON.stringify(components, null, 2)} as const;\n`;
  return { "api.ts": BANNER + "\n" + types, "schema.ts": runtime };
}
