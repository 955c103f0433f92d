// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Linq;
using System.Threading.Tasks;

namespace IreeRt.Tests {

/// <summary>Many threads calling one function (and one context) at once.</summary>
[TestFixture]
public class ConcurrencyTests : Fixture {
  [Test]
  public void ManyThreadsShareOneFunction() {
    const int threads = 8;
    const int calls = 500;
    using (var add = Context.Function("add_i32"))
    using (var scale = Context.Function("scale_add")) {
      var tasks = Enumerable.Range(0, threads).Select(id => Task.Factory.StartNew(() => {
        int checkedCalls = 0;
        using (var inv = add.CreateInvocation())
        using (var x = Tensor.FromArray(Device, new float[] { id, id, id, id }, 4)) {
          for (int i = 0; i < calls; ++i) {
            Assert.Equal((object)(id * 1000 + i), add.Call(id * 1000, i)[0]);
            inv.Reset().Arg(id).Arg(i).Invoke();
            Assert.Equal(id + i, inv.ResultInt(0));
            if (i % 10 == 0) {
              using (var output = (Tensor)scale.Call(x, x, (float)i)[0]) {
                float v = id * i + id;
                Assert.Sequence(new float[] { v, v, v, v }, output.ToArray<float>());
              }
            }
            ++checkedCalls;
          }
        }
        return checkedCalls;
      }, TaskCreationOptions.LongRunning)).ToArray();
      Task.WaitAll(tasks);
      foreach (var t in tasks) Assert.Equal(calls, t.Result);
    }
  }
}

}  // namespace IreeRt.Tests
