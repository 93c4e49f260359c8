import { createHash } from 'node:crypto';

/** What OpenAI-compatible APIs and Anthropic accept as a tool name. */
const SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Two-way map between MCP tool names and names a model provider accepts: unsafe characters become `_`, long
 * names are cut and end in a short hash, and a name that would clash gets a hash too. The model's call is
 * mapped back through the same table, never by guessing.
 */
export class ToolNames {
  private readonly toModel = new Map<string, string>();
  private readonly fromModel = new Map<string, string>();

  add(mcpName: string): string {
    const existing = this.toModel.get(mcpName);
    if (existing) return existing;
    let name = SAFE.test(mcpName) ? mcpName : this.shorten(mcpName);
    if (this.fromModel.has(name)) name = this.shorten(`${mcpName}#${this.fromModel.size}`);
    this.toModel.set(mcpName, name);
    this.fromModel.set(name, mcpName);
    return name;
  }

  /** The MCP name for a name the model used, or undefined if it is not one we gave it. */
  mcpName(modelName: string): string | undefined {
    return this.fromModel.get(modelName);
  }

  private shorten(name: string): string {
    const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
    return `${name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 55)}_${hash}`;
  }
}
