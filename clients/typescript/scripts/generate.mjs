// Writes src/generated/ from the OpenAPI document the service serves with every
// surface on: from a file (`npm run generate -- schema.json`), or from a service
// started by with-service.mjs (`node scripts/with-service.mjs npm run generate`).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { render } from "./render.mjs";

const here = dirname(fileURLToPath(import.meta.url));

async function served() {
  const description = JSON.parse(readFileSync(process.env.REVERIE_TEST_SERVICE, "utf8"));
  const answer = await fetch(`${description.url}/api/v1/schema/?format=json`, {
    headers: { Authorization: `Bearer ${description.tokens.alice}` },
  });
  if (!answer.ok) throw new Error(`the schema answered ${answer.status}`);
  return answer.json();
}

const [file] = process.argv.slice(2);
const document = file ? JSON.parse(readFileSync(file, "utf8")) : await served();
for (const [name, text] of Object.entries(await render(document))) {
  writeFileSync(join(here, "..", "src", "generated", name), text);
}
