// Preloaded into a `teamd agent -p --output-format stream-json` run: once the
// result line is written, and once more a turn of the event loop later, prints
// to stderr what still keeps the process alive (`RESOURCES <json>`). A timer or
// a child process in that list is what makes a finished run wait to exit.
const write = process.stdout.write.bind(process.stdout);
let seen = false;
process.stdout.write = (chunk, ...rest) => {
  const done = write(chunk, ...rest);
  if (!seen && String(chunk).includes('"type":"result"')) {
    seen = true;
    setImmediate(() => process._rawDebug(`RESOURCES ${JSON.stringify(process.getActiveResourcesInfo())}`));
  }
  return done;
};
