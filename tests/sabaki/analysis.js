// Drives `quartet go` through Sabaki's GTP client library (@sabaki/gtp), starts
// lz-analyze and kata-analyze as Sabaki does, stops each with the next command, and reads
// the streamed lines the way Sabaki's src/modules/analysis.js does: blocks split on
// "info", the trailing run of vertices is the PV, the rest key-value pairs, a winrate
// containing "." is a fraction, otherwise Leela Zero's x10000 integer.
// Usage: node analysis.js /path/to/quartet   (exit status 0 when every check passes)
const {Controller} = require('@sabaki/gtp')

function parseLine(line) {
  return line
    .split(/\s*info\s+/)
    .slice(1)
    .map(block => {
      let pv = block.trim().match(/(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$/)
      if (pv == null) return null
      let tokens = block.slice(0, pv.index).trim().split(/\s+/).slice(0, -1)
      let fields = {}
      for (let i = 0; i + 1 < tokens.length; i += 2) fields[tokens[i]] = tokens[i + 1]
      return {
        move: fields.move,
        visits: +fields.visits,
        winrate: fields.winrate.includes('.') ? +fields.winrate * 100 : +fields.winrate / 100,
        scoreLead: fields.scoreLead != null ? +fields.scoreLead : null,
        pv: pv[0].split(/\s+/)
      }
    })
    .filter(x => x != null)
}

function check(cond, what) {
  if (!cond) {
    console.error('FAILED: ' + what)
    process.exit(1)
  }
}

async function analyse(ctl, name, args) {
  let lines = []
  let done = ctl.sendCommand({name, args}, ({line}) => {
    if (line.startsWith('info')) lines.push(line)
  })
  // Let a few intervals stream, then stop the stream with the next command, as Sabaki does.
  while (lines.length < 2) await new Promise(r => setTimeout(r, 50))
  let next = ctl.sendCommand({name: 'name'})
  let response = await done
  check(!response.error, name + ' answered without error')
  check((await next).content === 'quartet', 'the next command is answered after the stream')
  return lines
}

async function main() {
  let ctl = new Controller(process.argv[2], ['go'])
  ctl.start()
  await ctl.sendCommand({name: 'boardsize', args: ['9']})
  await ctl.sendCommand({name: 'play', args: ['B', 'E5']})
  for (let [name, args, floats] of [
    ['lz-analyze', ['W', '10'], false],
    ['kata-analyze', ['W', '10'], true]
  ]) {
    let lines = await analyse(ctl, name, args)
    for (let line of lines) {
      let vars = parseLine(line)
      check(vars.length > 0, name + ': Sabaki finds variations in ' + line)
      for (let v of vars) {
        check(/^[A-HJ][1-9]$|^pass$/.test(v.move), name + ': move ' + v.move)
        check(v.move !== 'E5', name + ': occupied point proposed')
        check(v.visits > 0, name + ': visits')
        check(v.winrate >= 0 && v.winrate <= 100, name + ': winrate ' + v.winrate)
        check(v.pv[0] === v.move, name + ': pv starts with the move')
        check((v.scoreLead != null) === floats, name + ': scoreLead present only in kata form')
      }
    }
  }
  await ctl.stop()
  console.log('sabaki analysis: ok')
}

main().catch(e => {
  console.error(e)
  process.exit(1)
})
