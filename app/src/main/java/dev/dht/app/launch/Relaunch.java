package dev.dht.app.launch;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Starts this JVM again with {@link HeapDefaults} when no heap option was given: the process image
 * is replaced ({@code execv}), so the process keeps its PID, its parent, its standard streams and
 * its signals, and whoever started it (a shell, systemd, a test that pauses or kills it) sees one
 * process throughout. The new JVM has a heap option, so it never does this again. On a system
 * without {@code /proc} nothing happens.
 */
public final class Relaunch {
  private static final Path COMMAND_LINE = Path.of("/proc/self/cmdline");
  private static final String EXECUTABLE = "/proc/self/exe";

  private Relaunch() {}

  /** Returns only if the JVM is not started again: a heap option was given, or exec failed. */
  public static void withHeapDefaultsIfNoneChosen() {
    HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    long memory =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    List<String> flags = HeapDefaults.flags(name -> chosen(vm, name), memory);
    if (flags.isEmpty() || !Files.isReadable(COMMAND_LINE)) {
      return;
    }
    List<String> argv;
    try {
      argv = arguments(Files.readAllBytes(COMMAND_LINE));
    } catch (IOException e) {
      return;
    }
    List<String> again = new ArrayList<>();
    again.add(argv.getFirst());
    again.addAll(flags); // before the user's options: those of the user's that follow win
    again.addAll(argv.subList(1, argv.size()));
    System.err.println(
        "dht: no heap option given; starting the JVM again with " + String.join(" ", flags));
    System.err.flush();
    System.out.flush();
    String failure = exec(again);
    System.err.println("dht: could not start the JVM again (" + failure + "); going on as it is");
  }

  private static boolean chosen(HotSpotDiagnosticMXBean vm, String flag) {
    try {
      VMOption.Origin origin = vm.getVMOption(flag).getOrigin();
      return origin != VMOption.Origin.DEFAULT && origin != VMOption.Origin.ERGONOMIC;
    } catch (IllegalArgumentException e) { // not a flag of this JVM
      return false;
    }
  }

  /** The NUL-separated arguments of {@code /proc/self/cmdline}. */
  static List<String> arguments(byte[] commandLine) {
    String all = new String(commandLine, StandardCharsets.UTF_8);
    if (all.endsWith("\0")) {
      all = all.substring(0, all.length() - 1);
    }
    return Arrays.asList(all.split("\0", -1));
  }

  /** Replaces this process with {@code argv}; returns why it could not. */
  private static String exec(List<String> argv) {
    try (Arena arena = Arena.ofConfined()) {
      Linker linker = Linker.nativeLinker();
      MethodHandle execv =
          linker.downcallHandle(
              linker.defaultLookup().find("execv").orElseThrow(),
              FunctionDescriptor.of(
                  ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
      MemorySegment pointers = arena.allocate(ValueLayout.ADDRESS, argv.size() + 1L);
      for (int i = 0; i < argv.size(); i++) {
        pointers.setAtIndex(ValueLayout.ADDRESS, i, arena.allocateFrom(argv.get(i)));
      }
      pointers.setAtIndex(ValueLayout.ADDRESS, argv.size(), MemorySegment.NULL);
      int result = (int) execv.invokeExact(arena.allocateFrom(EXECUTABLE), pointers);
      return "execv returned " + result;
    } catch (Throwable e) {
      return e.toString();
    }
  }
}
