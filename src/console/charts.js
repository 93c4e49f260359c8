// Live charts of the last five minutes, drawn with uPlot from GET /admin/activity (the gateway keeps the series;
// the page only draws): checked calls per second stacked by outcome, and their p50/p99 latency.
import { $, api } from './dom.js';

/* global uPlot */
const COLOURS = { allow: '#2e7d32', deny: '#c62828', approve: '#ef6c00', error: '#6a1b9a' };
let calls;
let latency;

/** Bands for a stacked chart: each series is the sum of itself and those below it, drawn from the top down. */
function stacked(counts) {
  const order = ['allow', 'deny', 'approve', 'error'];
  const sums = [];
  let running = counts.allow.map(() => 0);
  for (const key of order) {
    running = running.map((v, i) => v + counts[key][i]);
    sums.push(running);
  }
  return sums.reverse(); // error (the total) first, allow last: each band paints over the one above it
}

function width() {
  return Math.max(280, $('activity').clientWidth - 32);
}

function callsChart(data) {
  const series = ['error', 'approve', 'deny', 'allow'].map((key) => ({
    label: { allow: 'allowed', deny: 'refused', approve: 'needs approval', error: 'errors' }[key],
    stroke: COLOURS[key],
    fill: `${COLOURS[key]}55`,
    width: 1,
    points: { show: false },
  }));
  return new uPlot({ width: width(), height: 150, series: [{}, ...series], axes: [{}, { label: 'calls/s', size: 50 }], scales: { x: { time: true } }, legend: { live: false } }, data, $('chart-calls'));
}

function latencyChart(data) {
  return new uPlot(
    {
      width: width(),
      height: 130,
      series: [{}, { label: 'p50 ms', stroke: '#1565c0', width: 1.5, spanGaps: false }, { label: 'p99 ms', stroke: '#ad1457', width: 1.5, spanGaps: false }],
      axes: [{}, { label: 'ms', size: 50 }],
      scales: { x: { time: true } },
      legend: { live: false },
    },
    data,
    $('chart-latency'),
  );
}

export async function drawCharts() {
  let a;
  try {
    a = await api('GET', '/admin/activity');
  } catch (err) {
    if (err?.status === 404) {
      $('activity-off').hidden = false;
      $('chart-calls').hidden = true;
      $('chart-latency').hidden = true;
    }
    return;
  }
  const callData = [a.seconds, ...stacked(a.counts)];
  const latencyData = [a.seconds, a.p50, a.p99];
  if (calls) calls.setData(callData);
  else calls = callsChart(callData);
  if (latency) latency.setData(latencyData);
  else latency = latencyChart(latencyData);
  const lastMinute = (key) => a.counts[key].slice(-60).reduce((n, v) => n + v, 0);
  const total = ['allow', 'deny', 'approve', 'error'].reduce((n, k) => n + lastMinute(k), 0);
  const refused = lastMinute('deny') + lastMinute('error');
  $('activity-summary').textContent = `${total} call${total === 1 ? '' : 's'} in the last minute${refused ? `, ${refused} refused or failed` : ''}`;
  $('activity').dataset.calls = String(['allow', 'deny', 'approve', 'error'].reduce((n, k) => n + a.counts[k].reduce((m, v) => m + v, 0), 0));
  $('activity').classList.toggle('alarm', total > 0 && refused / total > 0.5);
}
