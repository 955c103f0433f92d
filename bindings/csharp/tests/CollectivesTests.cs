// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System.Threading.Tasks;

namespace IreeRt.Tests {

/// <summary>
/// Rank and count from the caller: two tasks, each a rank with its own device (DeviceOptions rank,
/// ranks, rendezvous) and context, run bindings/tests/all_reduce.mlir together.
/// </summary>
[TestFixture]
public class CollectivesTests {
  static float[] RankInput(int rank) {
    return new float[] { rank + 1, 2 * (rank + 1), 3 * (rank + 1), 4 * (rank + 1) };
  }

  static float[] RunRank(Instance instance, int rank, string rendezvous) {
    using (var options = new DeviceOptions().Set("rank", rank.ToString()).Set("ranks", "2")
                                            .Set("rendezvous", rendezvous))
    using (var device = new Device(instance, "local-task", options))
    using (var context = instance.CreateContext(device, Paths.AllReduce))
    using (var f = context.Function("all_reduce"))
    using (var input = Tensor.FromArray(device, RankInput(rank), 4))
    using (var output = (Tensor)f.Call(input)[0]) {
      return output.ToArray<float>();
    }
  }

  [Test]
  public void TwoRanksAsTasksSumTheirInputs() {
    using (var instance = new Instance()) {
      var rank1 = Task.Run(() => RunRank(instance, 1, "local:csharp-sum"));
      float[] rank0 = RunRank(instance, 0, "local:csharp-sum");
      var expected = new float[] { 3, 6, 9, 12 };
      Assert.Sequence(expected, rank0, "rank 0");
      Assert.Sequence(expected, rank1.Result, "rank 1");
    }
  }

  [Test]
  public void NoRankGivenFailsInsteadOfRunningAlone() {
    using (var instance = new Instance())
    using (var device = instance.CreateDevice("local-task"))
    using (var context = instance.CreateContext(device, Paths.AllReduce))
    using (var f = context.Function("all_reduce"))
    using (var input = Tensor.FromArray(device, RankInput(0), 4)) {
      Assert.Fails(StatusCode.FailedPrecondition, () => f.Call(input));
    }
  }
}

}  // namespace IreeRt.Tests
