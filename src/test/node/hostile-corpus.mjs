// The known-bad JSON documents of src/test/resources/hostile-json/corpus.json, built from their recipes; the Java
// tests read the same file (dev.switchboard.platform.HostileCorpus), bench/hostile.mjs and hostile-server.mjs use this.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const corpusFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "resources", "hostile-json", "corpus.json");

/** [{ name, bytes (Buffer), refusal (string or null), topLevel, bytesOnly }] */
export function hostileDocuments() {
  return JSON.parse(fs.readFileSync(corpusFile, "utf8")).documents.map((recipe) => ({
    name: recipe.name,
    bytes: Buffer.concat(recipe.parts.map((part) => part.hex !== undefined ? Buffer.from(part.hex, "hex")
      : Buffer.from(Array.from({ length: part.times ?? 1 }, (_, i) => part.number ? part.text.replaceAll("#", String(i)) : part.text).join(""), "utf8"))),
    refusal: recipe.refusal ?? null,
    topLevel: recipe.topLevel ?? null,
    bytesOnly: recipe.bytesOnly ?? false,
  }));
}

const CALL_PREFIX = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":';

/** The document as an answer to the request with this id (its params become the result), or null when it has no such shape. */
export function asAnswer(document, id) {
  const text = document.bytes.toString("latin1");
  return text.startsWith(CALL_PREFIX)
    ? Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`, "latin1"), document.bytes.subarray(CALL_PREFIX.length)])
    : null;
}
