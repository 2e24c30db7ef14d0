/**
 * The catalogue on `/`: a skill's real example answer is fetched when the skill is opened (not at
 * page load), and the list can be filtered by name, id or tag.
 */
import { byId, pretty } from './lib/dom.js';

interface Example {
  skill: string;
  body: unknown;
  computedAt: string;
  durationMs: number;
  outcome: 'answer' | 'unavailable' | 'refused';
  answer?: unknown;
  error?: { code: string; message: string };
  nextRunAfter: string;
}

const OUTCOME: Record<Example['outcome'], string> = {
  answer: 'Answered',
  unavailable: 'Answered available: false (a data gap is said, never guessed)',
  refused: 'Refused',
};

async function loadExample(target: HTMLElement, id: string): Promise<void> {
  if (target.dataset.state) return;
  target.dataset.state = 'loading';
  target.innerHTML = '<p class="muted">Running the skill on its example body…</p>';
  try {
    const res = await fetch(`/api/examples/${encodeURIComponent(id)}`);
    const data = (await res.json()) as Example | { error: { code: string; message: string } };
    target.replaceChildren();
    const label = document.createElement('p');
    label.className = 'label';
    const shown = document.createElement('pre');
    shown.className = 'code';
    if ('outcome' in data) {
      label.innerHTML = '';
      const outcome = document.createElement('strong');
      outcome.className = `outcome-${data.outcome}`;
      outcome.textContent = OUTCOME[data.outcome];
      label.append(outcome, ` — computed ${new Date(data.computedAt).toLocaleString()} in ${(data.durationMs / 1000).toFixed(1)} s; next run after ${new Date(data.nextRunAfter).toLocaleTimeString()}.`);
      shown.textContent = pretty(data.outcome === 'refused' ? { error: data.error } : data.answer);
    } else {
      label.textContent = `No example (HTTP ${res.status})`;
      shown.textContent = pretty(data);
    }
    target.append(label, shown);
    target.dataset.state = 'done';
  } catch (err) {
    target.textContent = `The example could not be fetched: ${(err as Error).message}`;
    delete target.dataset.state;
  }
}

for (const details of document.querySelectorAll<HTMLDetailsElement>('details.skill')) {
  details.addEventListener('toggle', () => {
    const id = details.dataset.skillId!;
    const target = details.querySelector<HTMLElement>('[data-example-for]');
    if (details.open && target) void loadExample(target, id);
  });
}

const filter = byId<HTMLInputElement>('skill-filter');
filter.addEventListener('input', () => {
  const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
  for (const details of document.querySelectorAll<HTMLDetailsElement>('details.skill')) {
    const text = `${details.dataset.skillId} ${details.dataset.tags} ${details.querySelector('.title')?.textContent ?? ''}`.toLowerCase();
    details.hidden = !words.every((w) => text.includes(w));
  }
});
