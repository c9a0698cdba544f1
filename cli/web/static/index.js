// The list of rulesets: start a game with settings, or open a game file.
"use strict";

function showMessage(text) {
  const box = document.getElementById("message");
  box.textContent = text;
  box.hidden = !text;
}

// A query as the server reads it: a space as %20, since a '+' is read as itself (set=name=a+b, variant=a+b), and
// URLSearchParams writes a space as '+' (a '+' as %2B).
const spaced = (query) => String(query).replace(/\+/g, "%20");

document.getElementById("start").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const how = event.submitter ? event.submitter.value : "play";
  const query = new URLSearchParams();
  for (const key of ["players", "seed", "variant"]) {
    if (form.get(key)) query.set(key, form.get(key));
  }
  for (const line of String(form.get("set") || "").split("\n")) {
    if (line.trim()) query.append("set", line.trim());
  }
  const who = how === "watch" ? "agents" : "seat";
  if (form.get(who)) query.set(who, form.get(who));
  window.location = `/${how}/${encodeURIComponent(form.get("ruleset"))}?${spaced(query)}`;
});

document.getElementById("open").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = new FormData(event.target).get("file");
  const mode = event.submitter ? event.submitter.value : "replay";
  if (!file || !file.size) {
    showMessage("choose a game file first");
    return;
  }
  const response = await fetch(`/api/open?mode=${mode}`, { method: "POST", body: await file.arrayBuffer() });
  const data = await response.json();
  if (data.error) showMessage(data.error);
  else window.location = data.url;
});
