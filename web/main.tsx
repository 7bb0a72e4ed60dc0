/** The page's entry: renders the app into #app. */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) {
  root.textContent = ''; // the shell's "loading" line
  render(<App />, root);
}
