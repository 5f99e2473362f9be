import Foundation
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("MemoryCache")
struct MemoryCacheTests {
    @Test("evicts the least recently used entry, counting reads as use")
    func leastRecentlyUsedOrder() {
        let cache = MemoryCache<String, Int>(countLimit: 3)
        cache.setValue(1, forKey: "a")
        cache.setValue(2, forKey: "b")
        cache.setValue(3, forKey: "c")
        #expect(cache.value(forKey: "a") == 1)
        cache.setValue(4, forKey: "d")
        #expect(cache.value(forKey: "b") == nil)
        #expect(cache.keysByRecency == ["d", "a", "c"])
        cache.setValue(30, forKey: "c")
        cache.setValue(5, forKey: "e")
        #expect(cache.keysByRecency == ["e", "c", "d"])
        #expect(cache.value(forKey: "c") == 30)
        #expect(cache.count == 3)
    }

    @Test("a projected read returns part of the value and counts as use")
    func projectedRead() {
        let cache = MemoryCache<String, [Int]>(countLimit: 2)
        cache.setValue([1, 2, 3], forKey: "a")
        cache.setValue([4], forKey: "b")
        #expect(cache.value(forKey: "a") { $0.count } == 3)
        #expect(cache.value(forKey: "missing") { $0.count } == nil)
        cache.setValue([5], forKey: "c")
        #expect(cache.keysByRecency == ["c", "a"])
    }

    @Test("keeps the total cost under the cost limit, oldest first")
    func costLimit() {
        let cache = MemoryCache<String, String>(costLimit: 100, maxEntryCostFraction: 0.5)
        cache.setValue("one", forKey: "1", cost: 40)
        cache.setValue("two", forKey: "2", cost: 40)
        _ = cache.value(forKey: "1")
        cache.setValue("three", forKey: "3", cost: 40)
        #expect(cache.totalCost == 80)
        #expect(cache.keysByRecency == ["3", "1"])
        cache.setValue("one again", forKey: "1", cost: 10)
        #expect(cache.totalCost == 50)
    }

    @Test("refuses one entry above the per-entry share and drops its stale value")
    func oversizeRefusal() {
        let cache = MemoryCache<String, Int>(costLimit: 1000, maxEntryCostFraction: 0.25)
        cache.setValue(1, forKey: "small", cost: 200)
        cache.setValue(2, forKey: "big", cost: 250)
        #expect(cache.setValue(3, forKey: "big", cost: 251) == false)
        #expect(cache.value(forKey: "big") == nil)
        #expect(cache.value(forKey: "small") == 1)
        #expect(cache.totalCost == 200)
    }

    @Test("lowering a limit evicts at once")
    func loweringLimits() {
        let cache = MemoryCache<Int, Int>()
        for index in 0..<10 { cache.setValue(index, forKey: index, cost: 10) }
        cache.countLimit = 4
        #expect(cache.keysByRecency == [9, 8, 7, 6])
        cache.costLimit = 25
        #expect(cache.keysByRecency == [9, 8])
        #expect(cache.totalCost == 20)
    }

    @Test("removes one entry or all, reusing freed slots")
    func removal() {
        let cache = MemoryCache<String, Int>()
        cache.setValue(1, forKey: "a", cost: 5)
        cache.setValue(2, forKey: "b", cost: 7)
        #expect(cache.removeValue(forKey: "a") == 1)
        #expect(cache.removeValue(forKey: "a") == nil)
        cache.setValue(3, forKey: "c", cost: 1)
        #expect(cache.keysByRecency == ["c", "b"])
        #expect(cache.totalCost == 8)
        #expect(cache.containsValue(forKey: "b"))
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
        #expect(cache.value(forKey: "b") == nil)
    }

    @Test("stays consistent under concurrent readers and writers")
    func concurrentUse() async {
        let cache = MemoryCache<Int, Int>(costLimit: 5_000, countLimit: 200)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<2_000 {
                        let key = (worker * 7 + step * 13) % 500
                        if step % 3 == 0 {
                            cache.setValue(key * 2, forKey: key, cost: key % 50)
                        } else if let value = cache.value(forKey: key) {
                            #expect(value == key * 2)
                        }
                    }
                }
            }
        }
        let keys = cache.keysByRecency
        #expect(keys.count == cache.count)
        #expect(keys.count <= 200)
        #expect(cache.totalCost == keys.reduce(0) { $0 + $1 % 50 })
        #expect(cache.totalCost <= 5_000)
    }
}
