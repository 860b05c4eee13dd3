// An independent client of the cuzk daemon: @grpc/grpc-js with @grpc/proto-loader reading our
// src/daemon/proto/cuzk/v1/proving.proto at run time (no generated C++ involved), so the wire
// protocol — service and method names, field numbers, enum values — is checked by a second
// implementation of gRPC and protobuf.
//
// usage: node client.mjs ADDR COMMAND [ARGS...]
//   submit C1 PRIORITY [REQUEST_ID]   SubmitProof (registered_proof 5 = StackedDrg2KiBV1_1,
//                                     sector_size 2048); prints the job id
//   idempotent C1 REQUEST_ID          two SubmitProof calls with one request_id: same job id
//   invalid C1                        malformed requests, each must be INVALID_ARGUMENT with a
//                                     message; a GetStatus afterwards must still answer
//   await JOB OUT                     AwaitProof (no timeout); writes the proof; prints JSON
//   await-timeout JOB MS              AwaitProof with timeout_ms; prints the status name
//   prove C1 OUT                      Prove (submit + await in one call)
//   cancel JOB                        CancelProof
//   status                            GetStatus as JSON
//   metrics                           GetMetrics text
//   preload CIRCUIT_ID                PreloadSRS
//   evict CIRCUIT_ID                  EvictSRS
// Exit status: 0 as expected, 1 otherwise (the reason on stderr).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)),
                                        '../oracle/package.json'));
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const here = path.dirname(fileURLToPath(import.meta.url));
const protoRoot = path.join(here, '../../src/daemon/proto');
const def = protoLoader.loadSync('cuzk/v1/proving.proto', {
  includeDirs: [protoRoot],
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
});
const pkg = grpc.loadPackageDefinition(def);

const [addr, command, ...rest] = process.argv.slice(2);
if (!addr || !command) {
  console.error('usage: node client.mjs ADDR COMMAND [ARGS...]');
  process.exit(1);
}
const client = new pkg.cuzk.v1.ProvingEngine(addr, grpc.credentials.createInsecure(), {
  'grpc.max_send_message_length': 256 << 20,
  'grpc.max_receive_message_length': 256 << 20,
});

function call(method, request, deadlineMs = 0) {
  return new Promise((resolve, reject) => {
    const opts = deadlineMs > 0 ? { deadline: new Date(Date.now() + deadlineMs) } : {};
    client[method](request, opts, (err, resp) => (err ? reject(err) : resolve(resp)));
  });
}

const codeName = (code) => Object.keys(grpc.status).find((k) => grpc.status[k] === code);

function porepRequest(c1Bytes, priority, requestId = '') {
  return {
    request_id: requestId,
    proof_kind: 'POREP_SEAL_COMMIT',
    sector_size: '2048',
    registered_proof: '5',
    priority,
    vanilla_proof: c1Bytes,
    sector_number: '1',
    miner_id: '1000',
  };
}

function fail(message) {
  console.error(`client.mjs: ${message}`);
  process.exit(1);
}

async function expectInvalid(what, request, messagePart) {
  try {
    const r = await call('SubmitProof', request, 60000);
    fail(`${what}: accepted as job ${r.job_id}, expected INVALID_ARGUMENT`);
  } catch (err) {
    if (err.code !== grpc.status.INVALID_ARGUMENT)
      fail(`${what}: ${codeName(err.code)} (${err.details}), expected INVALID_ARGUMENT`);
    if (!err.details || !err.details.includes(messagePart))
      fail(`${what}: message '${err.details}' does not mention '${messagePart}'`);
    console.log(`ok: ${what}: INVALID_ARGUMENT: ${err.details}`);
  }
}

async function main() {
  switch (command) {
    case 'submit': {
      const [c1, priority, requestId] = rest;
      const r = await call('SubmitProof', porepRequest(fs.readFileSync(c1), priority, requestId),
                           60000);
      if (!r.job_id) fail('SubmitProof returned no job_id');
      console.log(r.job_id);
      break;
    }
    case 'idempotent': {
      const [c1, requestId] = rest;
      const bytes = fs.readFileSync(c1);
      const a = await call('SubmitProof', porepRequest(bytes, 'LOW', requestId), 60000);
      const b = await call('SubmitProof', porepRequest(bytes, 'LOW', requestId), 60000);
      if (a.job_id !== b.job_id) fail(`same request_id gave jobs ${a.job_id} and ${b.job_id}`);
      console.log(a.job_id);
      break;
    }
    case 'invalid': {
      const c1 = fs.readFileSync(rest[0]);
      await expectInvalid('malformed C1 JSON',
                          porepRequest(Buffer.from('{"registered_proof": "StackedDrg2KiBV1_1",'),
                                       'NORMAL'), 'C1');
      await expectInvalid('empty vanilla_proof', porepRequest(Buffer.alloc(0), 'NORMAL'),
                          'vanilla_proof is empty');
      await expectInvalid('wrong registered proof (32 GiB for a 2 KiB C1)',
                          { ...porepRequest(c1, 'NORMAL'), registered_proof: '8',
                            sector_size: String(32 * 2 ** 30) }, 'StackedDrg');
      await expectInvalid('sector size that does not match',
                          { ...porepRequest(c1, 'NORMAL'), sector_size: String(8 << 20) },
                          'does not match');
      await expectInvalid('unsupported proof kind',
                          { ...porepRequest(c1, 'NORMAL'), proof_kind: 'WINNING_POST' },
                          'not supported');
      const s = await call('GetStatus', {}, 10000);
      console.log(`ok: still serving (${s.queues.length} queue(s), backend ${s.backend})`);
      break;
    }
    case 'await': {
      const [job, out] = rest;
      const r = await call('AwaitProof', { job_id: job, timeout_ms: '0' });
      if (r.status !== 'COMPLETED')
        fail(`job ${job}: ${r.status} ${r.error_message}`);
      fs.writeFileSync(out, r.proof);
      console.log(JSON.stringify({
        job_id: r.job_id, status: r.status, bytes: r.proof.length, state: r.state,
        queue_wait_ms: r.queue_wait_ms, synthesis_ms: r.synthesis_ms,
        gpu_compute_ms: r.gpu_compute_ms, total_ms: r.total_ms,
      }));
      if (r.job_id !== job) fail(`answer for ${r.job_id}, asked for ${job}`);
      if (Number(r.total_ms) <= 0) fail(`job ${job}: total_ms is ${r.total_ms}`);
      break;
    }
    case 'await-timeout': {
      const [job, ms] = rest;
      const r = await call('AwaitProof', { job_id: job, timeout_ms: ms });
      console.log(`${r.status} ${r.state} ${r.partitions_done}/${r.partitions_total}`);
      break;
    }
    case 'prove': {
      const [c1, out] = rest;
      const r = await call('Prove', { submit: porepRequest(fs.readFileSync(c1), 'HIGH') });
      if (!r.result || r.result.status !== 'COMPLETED')
        fail(`Prove: ${r.result && r.result.status} ${r.result && r.result.error_message}`);
      fs.writeFileSync(out, r.result.proof);
      console.log(r.result.job_id);
      break;
    }
    case 'cancel': {
      const r = await call('CancelProof', { job_id: rest[0] }, 10000);
      console.log(JSON.stringify(r));
      break;
    }
    case 'status':
      console.log(JSON.stringify(await call('GetStatus', {}, 10000)));
      break;
    case 'metrics':
      process.stdout.write((await call('GetMetrics', {}, 10000)).prometheus_text);
      break;
    case 'preload':
      console.log(JSON.stringify(await call('PreloadSRS', { circuit_id: rest[0] }, 600000)));
      break;
    case 'evict':
      console.log(JSON.stringify(await call('EvictSRS', { circuit_id: rest[0] }, 60000)));
      break;
    default:
      fail(`unknown command ${command}`);
  }
}

main().then(() => process.exit(0), (err) => {
  fail(`${command}: ${err.code !== undefined ? codeName(err.code) + ': ' : ''}` +
       `${err.details || err.message}`);
});
