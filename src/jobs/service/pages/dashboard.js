// The dashboard: signs in with an API key (kept in this tab's sessionStorage only) and lists the key's jobs; an
// unfinished job is followed through its event stream, or the list is read again every few seconds without one.
import { createParser } from '/assets/eventsource-parser.js';

const STORE = 'aso-jobs-key';
// A browser opens about six connections to one host: streams take a few, the rest of the page keeps the others.
const MAX_STREAMS = 4;
const FINAL = new Set(['succeeded', 'failed', 'canceled']);
const signin = document.getElementById('signin');
const signout = document.getElementById('signout');
const jobsSection = document.getElementById('jobs');
const rows = document.getElementById('job-rows');
const message = document.getElementById('message');
let timer;
const streams = new Map();
let streamsOffered = true;

function key() {
  return sessionStorage.getItem(STORE);
}

async function api(path) {
  const response = await fetch(path, { headers: { authorization: `Bearer ${key()}` } });
  if (!response.ok) {
    let text = `HTTP ${response.status}`;
    try {
      const body = await response.json();
      text = body.error ? `${body.error.message} (${body.error.code})` : text;
    } catch {}
    throw new Error(text);
  }
  return response;
}

function cell(text) {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

function row(job) {
  const tr = document.createElement('tr');
  tr.dataset.job = job.id;
  const id = cell(job.id.slice(0, 8));
  id.title = job.id;
  const status = cell(job.status);
  status.className = `status-${job.status}`;
  if (job.error) status.title = `${job.error.code}: ${job.error.message}`;
  const progress = document.createElement('td');
  const bar = document.createElement('progress');
  bar.max = 100;
  bar.value = job.progress;
  bar.textContent = `${job.progress}%`;
  bar.setAttribute('aria-label', `progress of job ${job.id}`);
  progress.append(bar, ` ${job.progress}%`);
  const download = document.createElement('td');
  if (job.download_url) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = `Download .${job.asset.format}`;
    button.addEventListener('click', () => save(job));
    download.append(button);
  } else if (job.error) {
    download.textContent = job.error.message;
  }
  tr.append(id, cell(job.model), status, progress, cell(new Date(job.created_at).toLocaleString()), download);
  return tr;
}

async function save(job) {
  try {
    const blob = await (await api(new URL(job.download_url).pathname)).blob();
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${job.id}.${job.asset.format}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  } catch (err) {
    message.textContent = `Download failed: ${err.message}`;
  }
}

function update(job) {
  const current = rows.querySelector(`tr[data-job="${CSS.escape(job.id)}"]`);
  if (current) current.replaceWith(row(job));
}

// Reads the job's events until it finishes; a service without them, or a stream that ends early, leaves the job to polling.
async function follow(id) {
  const controller = new AbortController();
  streams.set(id, controller);
  let finished = false;
  try {
    const response = await fetch(`/v1/jobs/${encodeURIComponent(id)}/events`, { headers: { authorization: `Bearer ${key()}`, accept: 'text/event-stream' }, signal: controller.signal });
    if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      streamsOffered = false;
      return;
    }
    const parser = createParser({
      onEvent: (event) => {
        if (event.event !== undefined && event.event !== 'job') return;
        const job = JSON.parse(event.data);
        update(job);
        finished = FINAL.has(job.status);
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } catch {
    // the connection broke: polling takes over below
  } finally {
    if (streams.get(id) === controller) streams.delete(id);
    if (!finished && !controller.signal.aborted && key()) {
      clearTimeout(timer);
      timer = setTimeout(refresh, 1500);
    }
  }
}

async function refresh() {
  clearTimeout(timer);
  try {
    const { data } = await (await api('/v1/jobs?limit=100')).json();
    rows.replaceChildren(...data.map(row));
    document.getElementById('empty').hidden = data.length > 0;
    message.textContent = '';
    const active = data.filter((j) => !FINAL.has(j.status));
    for (const job of active) if (streamsOffered && !streams.has(job.id) && streams.size < MAX_STREAMS) void follow(job.id);
    if (active.some((j) => !streams.has(j.id))) timer = setTimeout(refresh, 1500);
  } catch (err) {
    message.textContent = err.message;
    if (/401/.test(err.message) || /api_key/.test(err.message)) show(false);
  }
}

function show(signedIn) {
  signin.hidden = signedIn;
  signout.hidden = !signedIn;
  jobsSection.hidden = !signedIn;
  if (!signedIn) {
    clearTimeout(timer);
    for (const controller of streams.values()) controller.abort();
    streams.clear();
    rows.replaceChildren();
  }
}

signin.addEventListener('submit', (event) => {
  event.preventDefault();
  sessionStorage.setItem(STORE, new FormData(signin).get('key').trim());
  signin.reset();
  show(true);
  refresh();
});

signout.addEventListener('click', () => {
  sessionStorage.removeItem(STORE);
  message.textContent = 'Signed out.';
  show(false);
});

document.getElementById('refresh').addEventListener('click', refresh);

if (key()) {
  show(true);
  refresh();
}
