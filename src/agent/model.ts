import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';

/** Local servers that speak the OpenAI API, with where they listen by default. */
const OPENAI_COMPATIBLE: Record<string, { baseURL: string; env?: string }> = {
  openai: { baseURL: 'https://api.openai.com/v1', env: 'OPENAI_API_KEY' },
  ollama: { baseURL: 'http://127.0.0.1:11434/v1' },
  vllm: { baseURL: 'http://127.0.0.1:8000/v1' },
  lmstudio: { baseURL: 'http://127.0.0.1:1234/v1' },
  llamacpp: { baseURL: 'http://127.0.0.1:8080/v1' },
  compatible: { baseURL: '' },
};

export interface ModelChoice {
  /** `provider:name`, e.g. `ollama:llama3.2`, `openai:gpt-4o`, `anthropic:claude-sonnet-4-5`. */
  model?: string;
  baseURL?: string;
  apiKey?: string;
  /** Whether the model can look at images; unset: a guess from the model's name. */
  vision?: boolean;
}

export interface ResolvedModel {
  model: LanguageModel;
  provider: string;
  name: string;
  vision: boolean;
  /** Whether images may ride inside tool results (else they follow as a user turn). */
  imagesInToolResults: boolean;
}

export class ModelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelConfigError';
  }
}

const HOW_TO =
  'Choose a model with --model provider:name (or SLUICE_MODEL), e.g. --model ollama:llama3.2, --model openai:gpt-4o-mini ' +
  '(OPENAI_API_KEY), --model anthropic:claude-sonnet-4-5 (ANTHROPIC_API_KEY), or --model compatible:NAME --base-url URL for any ' +
  'OpenAI-compatible server (vLLM, llama.cpp, LM Studio, hosted APIs). --base-url and --api-key override the defaults.';

const VISION_NAMES = /(gpt-4o|gpt-4\.1|gpt-5|o\d|claude|vision|llava|qwen.*vl|gemma-?3|pixtral|minicpm-v|llama-?3\.2-?vision|mistral-small-3)/i;

/** Turns `provider:name` plus flags and environment into a model, or says exactly how to configure one. */
export function resolveModel(choice: ModelChoice, env: NodeJS.ProcessEnv = process.env): ResolvedModel {
  const spec = choice.model ?? env.SLUICE_MODEL;
  if (!spec) throw new ModelConfigError(`No model configured. ${HOW_TO}`);
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) throw new ModelConfigError(`"${spec}" is not provider:name. ${HOW_TO}`);
  const provider = spec.slice(0, colon).toLowerCase();
  const name = spec.slice(colon + 1);
  const vision = choice.vision ?? VISION_NAMES.test(name);

  if (provider === 'anthropic') {
    const apiKey = choice.apiKey ?? env.ANTHROPIC_API_KEY;
    if (!apiKey) throw new ModelConfigError(`anthropic needs an API key: --api-key or ANTHROPIC_API_KEY. ${HOW_TO}`);
    const anthropic = createAnthropic({ apiKey, baseURL: choice.baseURL ?? env.ANTHROPIC_BASE_URL });
    return { model: anthropic(name), provider, name, vision: choice.vision ?? true, imagesInToolResults: true };
  }
  const known = Object.hasOwn(OPENAI_COMPATIBLE, provider) ? OPENAI_COMPATIBLE[provider] : undefined;
  if (!known) throw new ModelConfigError(`unknown provider "${provider}"; known: anthropic, ${Object.keys(OPENAI_COMPATIBLE).join(', ')}. ${HOW_TO}`);
  const baseURL = choice.baseURL ?? env.SLUICE_BASE_URL ?? (provider === 'openai' ? env.OPENAI_BASE_URL : undefined) ?? known.baseURL;
  if (!baseURL) throw new ModelConfigError(`${provider} needs a base URL: --base-url or SLUICE_BASE_URL. ${HOW_TO}`);
  const apiKey = choice.apiKey ?? env.SLUICE_API_KEY ?? (known.env ? env[known.env] : undefined);
  if (provider === 'openai' && !apiKey) throw new ModelConfigError(`openai needs an API key: --api-key or OPENAI_API_KEY. ${HOW_TO}`);
  const compatible = createOpenAICompatible({ name: provider, baseURL, apiKey: apiKey ?? 'not-needed' });
  // The Chat Completions format has no images in tool messages: they follow as a user turn.
  return { model: compatible.chatModel(name), provider, name, vision, imagesInToolResults: false };
}
