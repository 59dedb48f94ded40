import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { memoryPages, validateXML, type XMLFileInfo } from 'xmllint-wasm';
import { fixturesDir } from './shared-fixtures.ts';

// The HL7 CDA schema is a shared fixture, outside the project: tests read it by path, the product never does.
export const CDA_SCHEMA_DIR = path.join(fixturesDir, 'cda-schema');
const MAIN_SCHEMA = 'infrastructure/cda/CDA_SDTC.xsd';

export interface CdaValidationResult {
  valid: boolean;
  errors: string[];
}

let schemaFiles: XMLFileInfo[] | undefined;

// Every .xsd under the schema folder, named by its path inside it, so the schemas' relative
// xs:include/xs:import locations resolve in xmllint's in-memory file system.
function loadSchemaFiles(): XMLFileInfo[] {
  schemaFiles ??= readdirSync(CDA_SCHEMA_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.xsd'))
    .map((file) => ({ fileName: file.split(path.sep).join('/'), contents: readFileSync(path.join(CDA_SCHEMA_DIR, file), 'utf8') }));
  return schemaFiles;
}

/** Validates a CDA document against CDA_SDTC.xsd (xmllint compiled to WebAssembly, nothing to install). */
export async function validateCda(xml: string): Promise<CdaValidationResult> {
  const files = loadSchemaFiles();
  const main = files.find((f) => f.fileName === MAIN_SCHEMA);
  if (!main) throw new Error(`CDA schema not found: ${path.join(CDA_SCHEMA_DIR, MAIN_SCHEMA)}`);
  const result = await validateXML({
    xml: { fileName: 'document.xml', contents: xml },
    schema: main,
    preload: files.filter((f) => f !== main),
    // A 20 MB attachment becomes 27 MB of base64; the default 32 MiB ceiling would abort the run.
    maxMemoryPages: memoryPages.GiB,
  });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}
