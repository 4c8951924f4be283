// The dashboard: signs in with an API key (kept in this tab's sessionStorage only) and lists the key's jobs.
const STORE = 'aso-jobs-key';
const signin = document.getElementById('signin');
const signout = document.getElementById('signout');
const jobsSection = document.getElementById('jobs');
const rows = document.getElementById('job-rows');
const message = document.getElementById('message');
let timer;

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

async function refresh() {
  clearTimeout(timer);
  try {
    const { data } = await (await api('/v1/jobs?limit=100')).json();
    rows.replaceChildren(...data.map(row));
    document.getElementById('empty').hidden = data.length > 0;
    message.textContent = '';
    if (data.some((j) => j.status === 'queued' || j.status === 'running')) timer = setTimeout(refresh, 1500);
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
