// Compiles core/retrieval/vector-kernel.wat into vector-kernel-wasm.ts (the bytes as a
// TypeScript array, so the package needs no WebAssembly toolchain at build or run time).
// Run after editing the .wat: npx tsx scripts/build-vector-kernel.ts
// tests/unit/memory/retrieval/vector-kernel.test.ts fails when the two disagree.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compileVectorKernel, renderVectorKernelModule } from "./vector-kernel-source.js";

const watPath = fileURLToPath(new URL("../core/retrieval/vector-kernel.wat", import.meta.url));
const outPath = fileURLToPath(new URL("../core/retrieval/vector-kernel-wasm.ts", import.meta.url));
const bytes = await compileVectorKernel(readFileSync(watPath, "utf8"));
writeFileSync(outPath, renderVectorKernelModule(bytes));
console.log(`wrote ${outPath} (${bytes.length} bytes of WebAssembly)`);
