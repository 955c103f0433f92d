// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A small test runner for the C# bindings under Mono (Debian ships no NUnit console for
// Mono 6.8): runs every public method marked [Test] of every [TestFixture] class in this
// assembly, prints one line per test and closes with "N passed, N failed".
//
// usage: mono IreeRt.Tests.exe --module=<bindings_test.vmfb> --mlp=<sample_mlp.vmfb>
//                              --parameters=<parameters.vmfb> --async=<async.vmfb>
//                              --all-reduce=<all_reduce.vmfb> [filter]
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;

namespace IreeRt.Tests {

[AttributeUsage(AttributeTargets.Class)]
public sealed class TestFixtureAttribute : Attribute {}

[AttributeUsage(AttributeTargets.Method)]
public sealed class TestAttribute : Attribute {}

public class AssertionException : Exception {
  public AssertionException(string message) : base(message) {}
}

public static class Assert {
  public static void True(bool condition, string message = "expected true") {
    if (!condition) throw new AssertionException(message);
  }

  public static void Equal<T>(T expected, T actual, string what = "value") {
    if (!EqualityComparer<T>.Default.Equals(expected, actual)) {
      throw new AssertionException(what + ": expected <" + expected + "> but was <" + actual + ">");
    }
  }

  public static void Sequence<T>(IEnumerable<T> expected, IEnumerable<T> actual, string what = "sequence") {
    if (!expected.SequenceEqual(actual)) {
      throw new AssertionException(what + ": expected [" + string.Join(", ", expected) +
                                   "] but was [" + string.Join(", ", actual) + "]");
    }
  }

  public static TException Throws<TException>(Action action) where TException : Exception {
    try {
      action();
    } catch (TException e) {
      return e;
    } catch (Exception e) {
      throw new AssertionException("expected " + typeof(TException).Name + " but got " + e);
    }
    throw new AssertionException("expected " + typeof(TException).Name + ", nothing was thrown");
  }

  public static IreeRtException Fails(StatusCode code, Action action) {
    var e = Throws<IreeRtException>(action);
    Equal(code, e.Code, "status code (" + e.Message + ")");
    return e;
  }
}

public static class Paths {
  public static string Module;
  public static string Mlp;
  public static string Parameters;  // tests/unit/modules/programs/parameters.mlir
  public static string Async;  // tests/unit/api/programs/needs_hal.mlir, async-external
  public static string AllReduce;  // bindings/tests/all_reduce.mlir, 2 ranks
}

public static class TestRunner {
  public static int Main(string[] args) {
    string filter = null;
    foreach (var a in args) {
      if (a.StartsWith("--module=")) Paths.Module = a.Substring(9);
      else if (a.StartsWith("--mlp=")) Paths.Mlp = a.Substring(6);
      else if (a.StartsWith("--parameters=")) Paths.Parameters = a.Substring(13);
      else if (a.StartsWith("--async=")) Paths.Async = a.Substring(8);
      else if (a.StartsWith("--all-reduce=")) Paths.AllReduce = a.Substring(13);
      else filter = a;
    }
    if (Paths.Module == null || Paths.Mlp == null || Paths.Parameters == null || Paths.Async == null ||
        Paths.AllReduce == null) {
      Console.Error.WriteLine("usage: IreeRt.Tests.exe --module=<vmfb> --mlp=<vmfb> " +
                              "--parameters=<vmfb> --async=<vmfb> --all-reduce=<vmfb> [filter]");
      return 2;
    }
    int passed = 0, failed = 0;
    var fixtures = typeof(TestRunner).Assembly.GetTypes()
        .Where(t => t.GetCustomAttribute<TestFixtureAttribute>() != null).OrderBy(t => t.Name);
    foreach (var type in fixtures) {
      var tests = type.GetMethods(BindingFlags.Public | BindingFlags.Instance)
          .Where(m => m.GetCustomAttribute<TestAttribute>() != null).OrderBy(m => m.Name);
      foreach (var method in tests) {
        string name = type.Name + "." + method.Name;
        if (filter != null && !name.Contains(filter)) continue;
        var watch = Stopwatch.StartNew();
        object fixture = null;
        try {
          fixture = Activator.CreateInstance(type);
          method.Invoke(fixture, null);
          ++passed;
          Console.WriteLine("PASS {0} ({1} ms)", name, watch.ElapsedMilliseconds);
        } catch (TargetInvocationException e) {
          ++failed;
          Console.WriteLine("FAIL {0}: {1}", name, e.InnerException);
        } catch (Exception e) {
          ++failed;
          Console.WriteLine("FAIL {0}: {1}", name, e);
        } finally {
          var d = fixture as IDisposable;
          if (d != null) d.Dispose();
        }
      }
    }
    Console.WriteLine("{0} passed, {1} failed", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
  }
}

}  // namespace IreeRt.Tests
