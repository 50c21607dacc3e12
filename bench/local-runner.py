#!/usr/bin/env python3
"""On-demand benchmark of the local runner (not a test: timings vary with the machine).

Measures, in one run and side by side:
  - cold `invoke GetWorkspace` (fresh JVM to response), engine already running, runs alternating between:
    `java -jar` with the JVM's default JIT; `java -jar` with C1 only (-XX:TieredStopAtLevel=1, what Lambda's
    java21 runtime does); `./oneread` (the build's class-data archive, and C1 only); and `./oneread` on the first
    invoke after a build, when the function's zip is not unpacked yet;
  - cold `invoke` including the embedded engine's start;
  - warm latency through `start-api`: median and p99 of 200 sequential GETs on localhost (keep-alive).

Usage: mvn -B -q package -DskipTests && python3 bench/local-runner.py
"""
import glob, http.client, json, os, platform, shutil, socket, statistics, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAR = os.path.join(ROOT, "local/target/oneread-local.jar")
EVENTS = os.path.join(ROOT, "events")
COLD_RUNS = int(os.environ.get("COLD_RUNS", "10"))
LAUNCHER = os.path.join(ROOT, "oneread")
UNPACKED = os.path.join(tempfile.gettempdir(), "oneread-artifacts")
WARM_REQUESTS = 200


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listening on {port}")


def invoke(function, event, env, jvm_flags=(), launcher=False):
    command = [LAUNCHER] if launcher else ["java", *jvm_flags, "-jar", JAR]
    start = time.perf_counter()
    out = subprocess.run([*command, "invoke", function, "--event", event],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    elapsed = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    return elapsed, json.loads(out.stdout)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1)]


def main():
    if not os.path.exists(JAR):
        raise SystemExit("build first: mvn -B -q package -DskipTests")
    engine_port = free_port()
    engine = subprocess.Popen(["node", os.path.join(ROOT, "local/node_modules/dynalite/cli.js"), "--port", str(engine_port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    api = None
    try:
        wait_port(engine_port)
        env = dict(os.environ, DYNAMODB_ENDPOINT=f"http://127.0.0.1:{engine_port}", TABLE_NAME="bench")
        invoke("CreateWorkspace", os.path.join(EVENTS, "create-workspace.json"), env)  # table + workspace globex
        get_event = os.path.join(tempfile.mkdtemp(), "get-globex.json")
        with open(os.path.join(EVENTS, "get-workspace.json")) as source, open(get_event, "w") as target:
            target.write(source.read().replace("/acme", "/globex").replace('"acme"', '"globex"'))
        status = invoke("GetWorkspace", get_event, env)[1]["statusCode"]
        assert status == 200, status

        cold, cold_c1, cold_launcher, cold_unpacking = [], [], [], []
        for _ in range(COLD_RUNS):  # alternating, so that the machine's drift spreads over every variant
            cold.append(invoke("GetWorkspace", get_event, env)[0])
            cold_c1.append(invoke("GetWorkspace", get_event, env, ["-XX:TieredStopAtLevel=1"])[0])
            cold_launcher.append(invoke("GetWorkspace", get_event, env, launcher=True)[0])
            for unpacked in glob.glob(os.path.join(UNPACKED, "GetWorkspace-*")):
                shutil.rmtree(unpacked)
            cold_unpacking.append(invoke("GetWorkspace", get_event, env, launcher=True)[0])
        embedded_env = {k: v for k, v in env.items() if k != "DYNAMODB_ENDPOINT"}
        cold_embedded = [invoke("GetWorkspace", get_event, embedded_env)[0] for _ in range(max(3, COLD_RUNS // 2))]

        api_port = free_port()
        # The runner logs every request to stderr: send it to a file, a pipe nobody drains would block it.
        api_log = tempfile.NamedTemporaryFile(prefix="start-api-", suffix=".log", delete=False)
        api = subprocess.Popen(["java", "-jar", JAR, "start-api", "--port", str(api_port)], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=api_log)
        deadline = time.time() + 60
        while "start-api: listening" not in open(api_log.name).read():
            if time.time() > deadline or api.poll() is not None:
                raise SystemExit("start-api did not come up; see " + api_log.name)
            time.sleep(0.05)
        conn = http.client.HTTPConnection("127.0.0.1", api_port)
        token = subprocess.run(["java", "-jar", JAR, "token", "--workspaces", "globex"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()

        def get(path):
            t = time.perf_counter()
            conn.request("GET", path, headers={"Authorization": "Bearer " + token})
            response = conn.getresponse()
            response.read()
            assert response.status == 200, response.status
            return (time.perf_counter() - t) * 1000

        first = get("/workspaces/globex")
        for _ in range(20):
            get("/workspaces/globex")
        warm = [get("/workspaces/globex") for _ in range(WARM_REQUESTS)]

        cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
        java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
        print(f"machine: {os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}; {java}")
        print(f"cold java -jar invoke GetWorkspace, engine running  median {statistics.median(cold):.2f} s   (runs: {', '.join(f'{x:.2f}' for x in cold)})")
        for name, runs in (("cold invoke, -XX:TieredStopAtLevel=1       ", cold_c1),
                           ("cold ./oneread invoke (archive + C1)       ", cold_launcher),
                           ("cold ./oneread invoke, first after a build", cold_unpacking)):
            print(f"{name}  median {statistics.median(runs):.2f} s   ratio "
                  f"{statistics.median(runs) / statistics.median(cold):.2f}x of java -jar   "
                  f"(runs: {', '.join(f'{x:.2f}' for x in runs)})")
        print(f"cold invoke, embedded engine started too    median {statistics.median(cold_embedded):.2f} s   "
              f"ratio {statistics.median(cold_embedded) / statistics.median(cold):.2f}x of engine running")
        print(f"start-api first GetWorkspace (function init) {first:.1f} ms")
        print(f"start-api warm GetWorkspace x{WARM_REQUESTS}: median {statistics.median(warm):.2f} ms, "
              f"p99 {percentile(warm, 99):.2f} ms, max {max(warm):.2f} ms   "
              f"ratio warm/cold invoke {statistics.median(warm) / 1000 / statistics.median(cold):.4f}")
    finally:
        if api:
            api.terminate()
            api.wait(30)
        engine.terminate()
        engine.wait(10)


if __name__ == "__main__":
    main()
