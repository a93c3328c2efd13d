// Generates the API's types from the OpenAPI document (libs/apispec/openapi.yaml) with the
// pinned openapi-typescript: `node scripts/generate.mjs [output]` (default src/schema.d.ts).
// - Properties with a default stay optional (defaultNonNullable: false): a request may omit them.
// - A schema without a type that bounds arrays' items and objects' members (CustomFieldAnswer,
//   "any JSON value") is any of the JSON types, not only an object as openapi-typescript reads it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import openapiTS, { astToString, COMMENT_HEADER, transformSchemaObject } from 'openapi-typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const document = pathToFileURL(join(root, '..', '..', 'libs', 'apispec', 'openapi.yaml'));
const anyJSON = ['string', 'number', 'boolean', 'null', 'array', 'object'];

export async function generate(output) {
  const ast = await openapiTS(document, {
    defaultNonNullable: false,
    transform(schema, options) {
      if (typeof schema !== 'object' || schema === null) return undefined;
      const typed = ['type', '$ref', 'allOf', 'anyOf', 'oneOf', 'enum', 'const', 'not'].some((k) => k in schema);
      if (typed || !('items' in schema || 'additionalProperties' in schema)) return undefined;
      return transformSchemaObject({ ...schema, type: anyJSON }, options);
    },
  });
  writeFileSync(output, COMMENT_HEADER + astToString(ast));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await generate(process.argv[2] ?? join(root, 'src', 'schema.d.ts'));
}
