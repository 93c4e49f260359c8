import { describe, expect, it } from 'vitest';
import { ModelConfigError, resolveModel } from '../../src/agent/model.js';
import { ToolNames } from '../../src/agent/tool-names.js';

describe('model selection', () => {
  it('says how to configure a model when none is given', () => {
    expect(() => resolveModel({}, {})).toThrow(ModelConfigError);
    expect(() => resolveModel({}, {})).toThrow(/No model configured\. Choose a model with --model provider:name.*ollama.*anthropic/);
  });

  it('rejects unknown providers and missing keys with the way out', () => {
    expect(() => resolveModel({ model: 'gemini' }, {})).toThrow(/not provider:name/);
    expect(() => resolveModel({ model: 'acme:x' }, {})).toThrow(/unknown provider "acme"; known: anthropic, openai, ollama/);
    expect(() => resolveModel({ model: 'anthropic:claude-sonnet-4-5' }, {})).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => resolveModel({ model: 'openai:gpt-4o' }, {})).toThrow(/OPENAI_API_KEY/);
    expect(() => resolveModel({ model: 'compatible:x' }, {})).toThrow(/needs a base URL/);
  });

  it('picks providers, local defaults and vision from flags and environment', () => {
    const ollama = resolveModel({ model: 'ollama:llama3.2' }, {});
    expect([ollama.provider, ollama.name, ollama.vision, ollama.imagesInToolResults]).toEqual(['ollama', 'llama3.2', false, false]);
    expect(resolveModel({ model: 'ollama:llava' }, {}).vision).toBe(true);
    expect(resolveModel({ model: 'ollama:llava', vision: false }, {}).vision).toBe(false);
    const claude = resolveModel({}, { SLUICE_MODEL: 'anthropic:claude-sonnet-4-5', ANTHROPIC_API_KEY: 'k' });
    expect([claude.provider, claude.vision, claude.imagesInToolResults]).toEqual(['anthropic', true, true]);
  });
});

describe('tool names for providers', () => {
  it('keeps safe names, maps unsafe and long ones reversibly, and keeps clashes apart', () => {
    const names = new ToolNames();
    expect(names.add('files__read_file')).toBe('files__read_file');
    const dotted = names.add('github.create_issue');
    expect(dotted).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const underscored = names.add('github_create_issue');
    expect(underscored).not.toBe(dotted);
    const long = names.add(`x${'y'.repeat(100)}`);
    expect(long.length).toBeLessThanOrEqual(64);
    expect(names.mcpName(dotted)).toBe('github.create_issue');
    expect(names.mcpName(long)).toBe(`x${'y'.repeat(100)}`);
    expect(names.mcpName('made_up')).toBeUndefined();
  });
});
