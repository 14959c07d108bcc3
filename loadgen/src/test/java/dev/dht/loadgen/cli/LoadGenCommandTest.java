package dev.dht.loadgen.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.loadgen.engine.LoadConfig;
import dev.dht.loadgen.engine.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class LoadGenCommandTest {

  record Outcome(int exitCode, String out, String err) {}

  static Outcome execute(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new LoadGenCommand());
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int code = cli.execute(args);
    return new Outcome(code, out.toString(), err.toString());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--rate 0                              | --rate must be > 0",
        "--rate -10                            | --rate must be > 0",
        "--rate lots                           | bad rate 'lots'",
        "--rate 100 --workload scan            | unknown workload 'scan' (expected one of: put, get, mixed, fill)",
        "--rate 100 --distribution pareto      | unknown distribution 'pareto'",
        "--rate 100 --read-ratio 1.5           | --read-ratio must be in [0, 1]",
        "--rate 100 --read-ratio -0.1          | --read-ratio must be in [0, 1]",
        "--rate 100 --ack 3 --from 2           | --ack must not exceed --from",
        "--rate 100 --connections 2 --threads 4 | --threads must not exceed --connections",
        "--rate 100 --connections 0            | --connections must be in",
        "--rate 100 --keyspace 0               | --keyspace must be >= 1",
        "--rate 100 --duration 0               | --duration must be > 0",
        "--rate 100 --duration soon            | bad duration 'soon'",
        "--rate 100 --timeout 0s               | --timeout must be > 0",
        "--rate 100 --zipf-theta 1             | --zipf-theta must be in (0, 1)",
        "--rate 100 --url ftp://127.0.0.1:1     | --url must be an http(s)://host[:port] base URL",
        "--rate 100 --url http://127.0.0.1:1/v0 | --url must be a base URL without a path",
        "--workload get                        | Missing required option: '--rate=<rate>'",
        "--rate 100 --connections 2 --generators 3 | --generators must not exceed --connections",
        "--rate 100 --generators 2 --generator-index 2 | --generator-index must be in [0, --generators)",
        "--rate 100 --generators 2 --workload fill | --workload fill writes every key once",
        "--rate 100 --await-start              | --await-start needs --control-port",
        "--rate 100 --control-token-file t     | --control-token-file needs --control-port",
        "--rate 100 --control-port 0 --control-token-file /nonexistent/token | --control-token-file /nonexistent/token cannot be read",
      })
  void badOptionsExitWithCodeTwoAndAMessage(String args, String message) {
    Outcome o = execute(args.trim().split("\\s+"));

    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.err()).contains(message).contains("Usage: loadgen");
  }

  @Test
  void defaultsAreSane() {
    LoadGenCommand cmd = new LoadGenCommand();
    new CommandLine(cmd).parseArgs("--rate", "5k", "--warmup", "500ms");
    LoadConfig c = cmd.config();

    assertThat(c.rate()).isEqualTo(5000);
    assertThat(c.workload()).isEqualTo(Workload.PUT);
    assertThat(c.duration()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.warmup()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.ack()).isNull();
    assertThat(c.urls()).hasSize(1);
  }

  @Test
  void aFillIsBoundedByTwiceItsNominalTime() {
    LoadGenCommand cmd = new LoadGenCommand();
    new CommandLine(cmd)
        .parseArgs(
            "--rate", "1000", "-w", "FILL", "--keyspace", "5000", "--url", "http://a:1,http://b:2");
    LoadConfig c = cmd.config();

    assertThat(c.duration()).isEqualTo(Duration.ofSeconds(20));
    assertThat(c.window(0).maxSlots()).isEqualTo(5000);
    assertThat(c.urls()).hasSize(2);
  }

  @Test
  void helpListsTheOptions() {
    Outcome o = execute("--help");
    assertThat(o.exitCode()).isZero();
    assertThat(o.out()).contains("--rate", "--workload", "--termination-log", "--html");
  }
}
