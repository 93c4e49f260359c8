import { CONFIDENTIALITY } from '../../ifc/label.js';

/**
 * The Lua scripts the Redis state runs. Each runs atomically on the server, so a check and the write that
 * depends on it cannot be split by another replica's write, and each costs one round trip.
 */

// The lattice, written into the script from the one definition in ifc/label.ts.
const LATTICE = `
local names = {${CONFIDENTIALITY.map((c) => `'${c}'`).join(', ')}}
local rank = {}
for i, name in ipairs(names) do rank[name] = i end
-- A stored label that cannot be read counts as the top of the lattice: fail closed, never open.
local function parse(text)
  if not text then return nil end
  local i, c = string.match(text, '^(%a+)/(%a+)$')
  if (i == 'trusted' or i == 'untrusted') and rank[c] then return { i = i, c = rank[c] } end
  return { i = 'untrusted', c = #names }
end
local function join(a, b)
  return { i = (a.i == 'untrusted' or b.i == 'untrusted') and 'untrusted' or 'trusted', c = math.max(a.c, b.c) }
end
local function fmt(l) return l.i .. '/' .. names[l.c] end
`;

/**
 * A holder's label, and with a `seen` label its raise. KEYS: session labels (hash), identity marks (hash).
 * ARGV: session id, agent, stateless (1/0), isolated (1/0), seen ('' to only read). Returns {before, after}.
 * A new session starts at its identity's mark; a label only rises; the mark is raised with it.
 */
export const LABEL_SCRIPT = `${LATTICE}
local mark = parse(redis.call('HGET', KEYS[2], ARGV[2])) or { i = 'trusted', c = 1 }
local before
if ARGV[3] == '1' then
  before = mark
else
  local own = parse(redis.call('HGET', KEYS[1], ARGV[1]))
  if not own then
    own = mark
    redis.call('HSET', KEYS[1], ARGV[1], fmt(own))
  end
  if ARGV[4] == '1' then before = own else before = join(own, mark) end
end
if ARGV[5] == '' then return { fmt(before), fmt(before) } end
local after = join(before, parse(ARGV[5]))
if ARGV[3] ~= '1' and fmt(after) ~= fmt(before) then redis.call('HSET', KEYS[1], ARGV[1], fmt(after)) end
local raised = join(mark, after)
if fmt(raised) ~= fmt(mark) then redis.call('HSET', KEYS[2], ARGV[2], fmt(raised)) end
return { fmt(before), fmt(after) }
`;

/**
 * Token buckets, all or nothing, on the server's clock (replicas' clocks may differ). KEYS: the buckets.
 * ARGV: burst and perSecond for each key, in order. Returns {1}, or {0, index of the empty bucket (0-based),
 * ms until it holds a token}.
 */
export const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local levels = {}
local empty = nil
for i, key in ipairs(KEYS) do
  local burst = tonumber(ARGV[i * 2 - 1])
  local rate = tonumber(ARGV[i * 2])
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = tonumber(state[1]) or burst
  local at = tonumber(state[2]) or now
  local level = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
  levels[i] = level
  if level < 1 and not empty then empty = i end
end
for i, key in ipairs(KEYS) do
  local burst = tonumber(ARGV[i * 2 - 1])
  local rate = tonumber(ARGV[i * 2])
  local left = levels[i]
  if not empty then left = left - 1 end
  redis.call('HSET', key, 'tokens', tostring(left), 'at', tostring(now))
  -- A bucket that has refilled completely is the same as no bucket: let it go.
  redis.call('PEXPIRE', key, math.ceil(burst / rate * 1000) + 1000)
end
if not empty then return { 1 } end
local rate = tonumber(ARGV[empty * 2])
return { 0, empty - 1, math.ceil((1 - levels[empty]) / rate * 1000) }
`;

/**
 * Settles an approval exactly once, whichever replica decides. KEYS: the request, its verdict, the pending
 * set. ARGV: id, verdict JSON, verdict ttl ms, channel. Returns the request's JSON for the first verdict, nil after.
 */
export const SETTLE_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 1 then return false end
local body = redis.call('GET', KEYS[1])
if not body then return false end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('PUBLISH', ARGV[4], '{"id":' .. cjson.encode(ARGV[1]) .. ',"verdict":' .. ARGV[2] .. '}')
return body
`;
