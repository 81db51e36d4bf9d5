// The part of the WebAssembly JS API the scanner uses: Node has it as a global, but TypeScript
// declares it only in the DOM library, which this project does not load.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports: Record<string, unknown>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
  }
  class Global {
    value: unknown;
  }
}
