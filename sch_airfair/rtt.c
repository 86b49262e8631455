// SPDX-License-Identifier: GPL-2.0
/*
 * sch_airfair passive TCP RTT estimation and RTT-proportional buffer shares.
 *
 * Estimation. The qdisc sees the AP's egress; a receive hook on its device
 * (one struct packet_type each for IPv4 and IPv6, bound to the device, so only
 * received packets, never transmitted ones) sees the station's side. Both feed
 * one table of flow records, keyed by the symmetric flow hash
 * (airfair_flow_hash()). A flow's RTT is the sum of two halves, timed where
 * packets cross the AP (as pping does):
 *
 *   AP -> station -> AP: an egress packet's TSval, until an ingress packet
 *			 echoes it as TSecr;
 *   AP -> server -> AP:  an ingress packet's TSval, until an egress packet
 *			 echoes it.
 *
 * Each direction times one TSval at a time: the first packet that carries a
 * new value is remembered with its time; the sample is taken when the echo
 * first comes back, and given up when a later value is echoed instead or after
 * AIRFAIR_RTT_MAX_NS. Flows without timestamps get one sample per half from
 * the handshake (SYN to SYN-ACK, SYN-ACK to ACK), none if a SYN or SYN-ACK is
 * seen twice (Karn). A timestamp's egress time is taken when airfair hands
 * the packet to the driver (the timed packet is marked at enqueue, its time
 * moved on at dequeue), so the egress half leaves out airfair's own queueing:
 * an upload's ACKs are held there on purpose, and a half that counted the
 * hold would widen the upload window the hold is meant to keep (session 38:
 * 0.46 s for a slow station). The handshake's egress times are taken at
 * enqueue; ingress times when the stack receives the packet.
 *
 * Filter: each half keeps its minimum over the last 10 to 20 s (two 10 s
 * windows). Every sample is at least the true half round trip; a minimum
 * removes what comes on top (delayed ACKs, a sender's idle time after a pure
 * ACK, TSval granularity, queueing), so the estimate is the flow's base RTT: the
 * quantity a bandwidth-delay product needs, and one that does not grow with
 * the buffer share it sizes (no feedback through the queue). It follows an
 * RTT decrease at once and an increase within 20 s.
 *
 * Station figure (the rtt_us class statistic): the mean of the estimates of
 * the station's recent TCP flows, each weighted by the samples its weaker half
 * rests on, up to AIRFAIR_RTT_FULL_WEIGHT. A minimum is only as good as the
 * samples behind it: an idle connection (iperf3's control connection, an
 * ssh session) has its handshake and a message or two, each of which can sit
 * milliseconds above the path on a loaded host, while a transfer's minimum
 * over dozens of samples does not. Measured (TCG guest, 5 ms netem path, ping
 * min 6.5 ms): an iperf3 transfer read 5.9 ms from 34 and 59 samples, its
 * control connection 8.6 ms from 1 and 2, and the unweighted mean 7.2 ms
 * (+12%; +41% and +113% in loaded runs, where only handshake timing changes).
 * The weights only decide how flows are pooled: a station with idle
 * connections alone still gets their estimate.
 *
 * Locking. The table has its own spinlock: egress updates it under the qdisc's
 * root lock (root lock, then table lock), the receive hook from softirq with
 * the table lock only, so the receive path never contends for the root lock.
 * The qdisc copies the estimate into the flow (flow->rtt_us) on each egress
 * packet. The table is allocated at init (nothing is allocated per packet) and
 * freed at destroy after __dev_remove_pack() and synchronize_net(), which
 * waits for running handlers. Costs: see docs/qdisc.md.
 *
 * Bounds. Two-way set-associative table, 8 records per station slot (256 to
 * 32768 records); a new flow takes the least recently used record of its set
 * if that has been idle for AIRFAIR_RTT_IDLE, else it goes unmeasured (counted
 * as rtt_untracked) and counts as the reference RTT. Only egress packets and
 * received SYNs create records, so traffic the qdisc never carries does not
 * fill the table.
 *
 * Buffer shares (kliazovich-rdqm): a TCP flow needs about one bandwidth-delay
 * product queued to keep its link busy, so flows with a longer RTT are
 * entitled to a larger part of the buffer. A flow with no estimate yet counts
 * as having the reference RTT.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/tcp.h>
#include "airfair.h"

#define AIRFAIR_RTT_WIN		(10 * HZ)	/* windowed minimum */
#define AIRFAIR_RTT_MAX_NS	(5 * NSEC_PER_SEC)	/* longer: no sample */
#define AIRFAIR_RTT_IDLE	(2 * HZ)	/* a record this idle may be reused */
#define AIRFAIR_RTT_PER_STA	8
#define AIRFAIR_RTT_MIN_ENTS	256
#define AIRFAIR_RTT_MAX_ENTS	32768

enum {
	AIRFAIR_HS_NONE,
	AIRFAIR_HS_SYN,		/* SYN went hs_dir at hs_ns */
	AIRFAIR_HS_SYNACK,	/* SYN-ACK came back at hs_ns */
	AIRFAIR_HS_DONE,
};

s64 airfair_rtt_share(const struct airfair_sched *q,
		      const struct airfair_flow *flow)
{
	u32 rtt = flow->rtt_us ?: AIRFAIR_RTT_REF_US;
	u32 floor = q->cfg.memlimit / 64;

	/* Scale so that a reference-RTT flow's share is 1/16 of the buffer. */
	return max_t(s64, floor,
		     div_u64((u64)q->cfg.memlimit * rtt, 16 * AIRFAIR_RTT_REF_US));
}

static void airfair_wmin_add(struct airfair_wmin *w, u32 us, unsigned long now)
{
	if (!w->cur) {
		w->cur = us;
		w->prev = 0;
		w->start = now;
		return;
	}
	if (time_after_eq(now, w->start + AIRFAIR_RTT_WIN)) {
		/* A window with no samples in between leaves nothing to keep. */
		w->prev = time_after_eq(now, w->start + 2 * AIRFAIR_RTT_WIN) ?
			  0 : w->cur;
		w->cur = us;
		w->start = now;
		return;
	}
	if (us < w->cur)
		w->cur = us;
}

static u32 airfair_wmin_get(const struct airfair_wmin *w)
{
	if (!w->prev)
		return w->cur;
	return min(w->cur, w->prev);
}

/* The sample in us (0: none taken, too long). */
static u32 airfair_rtt_sample(struct airfair_rtt *r, struct airfair_rtt_ent *e,
			      int half, u64 ns, unsigned long now)
{
	u32 us;

	if (ns > AIRFAIR_RTT_MAX_NS)
		return 0;
	us = max_t(u32, div_u64(ns, NSEC_PER_USEC), 1);
	airfair_wmin_add(&e->half[half], us, now);
	if (half == AIRFAIR_RTT_EGRESS)
		airfair_wmin_add(&r->air_floor, us, now);
	if (e->nr_samples[half] < AIRFAIR_RTT_FULL_WEIGHT)
		e->nr_samples[half]++;
	r->samples++;
	return us;
}

/*
 * The queue below the qdisc as a flow saw it: by how much its AP -> station
 * -> AP half, timed from dequeue, exceeds the flow's windowed minimum. The
 * least excess over a meter interval, of all flows, is what every one of
 * them waited on top of its path: the standing queue below airfair, which
 * a stock mac80211 takes without limit (qdisc.c, airfair_meter_adapt).
 * Timestamp echoes of data only: a handshake's halves are timed from
 * enqueue, and a pure ACK's echo comes with the next data its station
 * sends, after whatever that station has queued itself (an upload's own
 * backlog, which holding the AP's grant down would not drain).
 */
static void airfair_rtt_below(struct airfair_rtt *r,
			      const struct airfair_rtt_ent *e, u32 us)
{
	u32 excess = us - airfair_wmin_get(&e->half[AIRFAIR_RTT_EGRESS]);

	r->below_min_us = r->below_samples ? min(r->below_min_us, excess) :
			  excess;
	r->below_samples++;
}

static u32 airfair_rtt_of(const struct airfair_rtt_ent *e)
{
	u32 a = airfair_wmin_get(&e->half[AIRFAIR_RTT_EGRESS]);
	u32 b = airfair_wmin_get(&e->half[AIRFAIR_RTT_INGRESS]);

	return a && b ? a + b : 0;
}

/*
 * The round trip a flow's window must cover, without what its station keeps
 * queued: the server side's half, and of the station side's the least any
 * flow of the AP has shown lately. Each station's half above that floor is
 * mostly its own standing queue, which the window it sizes would feed: a
 * wider window, a longer queue at the station, a longer half (session 39).
 */
static u32 airfair_rtt_path(const struct airfair_rtt *r,
			    const struct airfair_rtt_ent *e)
{
	u32 a = airfair_wmin_get(&e->half[AIRFAIR_RTT_EGRESS]);
	u32 b = airfair_wmin_get(&e->half[AIRFAIR_RTT_INGRESS]);
	u32 floor = airfair_wmin_get(&r->air_floor);

	return a && b ? min(a, floor ?: a) + b : 0;
}

/* The flow's record, or a new one if @add and there is room. */
static struct airfair_rtt_ent *airfair_rtt_find(struct airfair_rtt *r, u32 hash,
						bool add, unsigned long now)
{
	struct airfair_rtt_ent *a = &r->ents[2 * reciprocal_scale(hash, r->nr_sets)];
	struct airfair_rtt_ent *b = a + 1, *e;

	if (a->tag == hash)
		return a;
	if (b->tag == hash)
		return b;
	if (!add)
		return NULL;
	if (!a->tag)
		e = a;
	else if (!b->tag)
		e = b;
	else
		e = time_before(a->last_seen, b->last_seen) ? a : b;
	if (e->tag && time_before(now, e->last_seen + AIRFAIR_RTT_IDLE)) {
		r->untracked++;
		return NULL;
	}
	memset(e, 0, sizeof(*e));
	e->tag = hash;
	return e;
}

/* Handshake timing, for flows without timestamps. */
static void airfair_rtt_handshake(struct airfair_rtt *r,
				  struct airfair_rtt_ent *e,
				  const struct tcphdr *th, int dir, u64 ns,
				  unsigned long now)
{
	if (th->syn && !th->ack) {
		if (e->hs_state == AIRFAIR_HS_NONE) {
			e->hs_state = AIRFAIR_HS_SYN;
			e->hs_dir = dir;
			e->hs_ns = ns;
		} else if (e->hs_state != AIRFAIR_HS_DONE) {
			e->hs_state = AIRFAIR_HS_DONE;	/* SYN again: ambiguous */
		}
	} else if (th->syn) {
		if (e->hs_state == AIRFAIR_HS_SYN && dir != e->hs_dir) {
			airfair_rtt_sample(r, e, e->hs_dir, ns - e->hs_ns, now);
			e->hs_state = AIRFAIR_HS_SYNACK;
			e->hs_ns = ns;
		} else if (e->hs_state != AIRFAIR_HS_DONE) {
			e->hs_state = AIRFAIR_HS_DONE;
		}
	} else if (e->hs_state == AIRFAIR_HS_SYNACK && dir == e->hs_dir &&
		   th->ack) {
		airfair_rtt_sample(r, e, !e->hs_dir, ns - e->hs_ns, now);
		e->hs_state = AIRFAIR_HS_DONE;
	}
}

/*
 * Timestamp echo timing: one outstanding TSval per direction. True if this
 * packet is the one timed.
 */
static bool airfair_rtt_tstamp(struct airfair_rtt *r, struct airfair_rtt_ent *e,
			       const struct tcphdr *th,
			       const struct airfair_tcp_opts *o, int dir,
			       u64 ns, unsigned long now)
{
	int other = !dir;
	bool timed = false;

	/* Does this echo what went the other way? TSecr is only valid with ACK. */
	if (th->ack && e->ts_ns[other]) {
		if (o->tsecr == e->ts_val[other]) {
			u32 us = airfair_rtt_sample(r, e, other,
						    ns - e->ts_ns[other], now);

			if (us && other == AIRFAIR_RTT_EGRESS && e->ts_data)
				airfair_rtt_below(r, e, us);
			e->ts_ns[other] = 0;
		} else if (after(o->tsecr, e->ts_val[other])) {
			e->ts_ns[other] = 0;	/* its echo went past us */
		}
	}
	/*
	 * Time the first packet carrying a new TSval, if none is timed. Not
	 * the first one seen: earlier packets may have carried the same value,
	 * and an echo of theirs would make the sample too short.
	 *
	 * Pure ACKs are timed too: for a one-way transfer they are all that
	 * goes one of the two ways. Nothing makes the other end answer a pure
	 * ACK; its echo comes with the next data the sender sends, at once
	 * while the sender is window-limited, after the application's idle
	 * time while it is not. Every sample, handshake, data or pure ACK, is
	 * at least the true half round trip (the echo cannot leave before the
	 * value it echoes arrived), so the windowed minimum takes the best.
	 */
	if (!(e->ts_seen & BIT(dir))) {
		e->ts_seen |= BIT(dir);
	} else if (o->tsval != e->last_tsval[dir] &&
		   (!e->ts_ns[dir] || ns - e->ts_ns[dir] > AIRFAIR_RTT_MAX_NS)) {
		e->ts_val[dir] = o->tsval;
		e->ts_ns[dir] = ns;
		timed = true;
	}
	e->last_tsval[dir] = o->tsval;
	return timed;
}

/*
 * Account one TCP packet; the flow's record, NULL if it has none. *timed
 * (if given): the packet's TSval is the one timed. Called with r->lock held.
 */
static struct airfair_rtt_ent *airfair_rtt_track(struct airfair_rtt *r,
						 u32 hash,
						 const struct tcphdr *th,
						 const struct airfair_tcp_opts *o,
						 int dir, bool add, bool *timed)
{
	unsigned long now = jiffies;
	struct airfair_rtt_ent *e;
	u64 ns = ktime_get_ns();

	e = airfair_rtt_find(r, hash, add, now);
	if (!e)
		return NULL;
	e->last_seen = now;
	if (th->syn || e->hs_state != AIRFAIR_HS_DONE)
		airfair_rtt_handshake(r, e, th, dir, ns, now);
	if (o->ts && airfair_rtt_tstamp(r, e, th, o, dir, ns, now) && timed)
		*timed = true;
	return e;
}

/*
 * Hand the upload data counted for a flow over to its egress packet, at most
 * AIRFAIR_UPLOAD_TAKE_MAX frames per packet: one packet must not carry
 * seconds of air (a SYN, then a flood of segments, would hold its station
 * for that long). The rest stays in the record for the flow's next packets,
 * and a FIN or RST, after which the flow may send nothing more, takes it all
 * (the packet's cost is still bounded by AIRFAIR_COST_MAX_NS). The cap is
 * four 64 KB GRO packets of full segments: a receiver behind GRO ACKs one of
 * those at a time, and a cap of 64 left a third of an upload uncharged in CI.
 */
#define AIRFAIR_UPLOAD_TAKE_MAX	256

static void airfair_upload_take(struct airfair_rtt_ent *e,
				const struct tcphdr *th,
				struct airfair_upload_seen *up)
{
	u32 frames = e->up_frames;
	u32 bytes = e->up_bytes;

	if (!th->fin && !th->rst && frames > AIRFAIR_UPLOAD_TAKE_MAX) {
		frames = AIRFAIR_UPLOAD_TAKE_MAX;
		bytes = div_u64((u64)e->up_bytes * frames, e->up_frames);
	}
	up->tracked = true;
	up->frames = frames;
	up->bytes = bytes;
	e->up_frames -= frames;
	e->up_bytes -= bytes;
}

/*
 * Called from enqueue, under the root lock, for a TCP packet to a station
 * carrying @seg bytes of data per segment (0: none): the flow's RTT estimate
 * and its weight (the samples behind the weaker half), and the station's
 * delayed-ACK factor for the data it is sent. With @up, also hands over the
 * upload data received for the flow since its last egress packet;
 * up->tracked is false if the flow has no record to count it in.
 */
void airfair_rtt_egress(struct airfair_sched *q, u32 hash, const u8 *sta_addr,
			const struct tcphdr *th,
			const struct airfair_tcp_opts *o, u32 seg,
			struct airfair_rtt_seen *seen,
			struct airfair_upload_seen *up)
{
	struct airfair_rtt *r = &q->rtt;
	struct airfair_rtt_ent *e;

	memset(seen, 0, sizeof(*seen));
	if (up)
		memset(up, 0, sizeof(*up));
	if (!r->ents)
		return;
	/* Enqueue runs with BHs off already; _bh states what the lock needs. */
	spin_lock_bh(&r->lock);
	e = airfair_rtt_track(r, hash, th, o, AIRFAIR_RTT_EGRESS, true,
			      &seen->timed);
	if (e) {
		if (seen->timed) {
			e->ts_queued = true;
			e->ts_data = seg;
		}
		seen->rtt_us = airfair_rtt_of(e);
		seen->path_rtt_us = airfair_rtt_path(r, e);
		seen->weight = min(e->nr_samples[AIRFAIR_RTT_EGRESS],
				   e->nr_samples[AIRFAIR_RTT_INGRESS]);
		seen->down_delack_x256 = e->down_d_x256;
		if (seg)
			e->down_seg = min_t(u32, seg, U16_MAX);
		/* the station the flow's packets go to sends its uploads */
		ether_addr_copy(e->sta_addr, sta_addr);
		if (up)
			airfair_upload_take(e, th, up);
	}
	spin_unlock_bh(&r->lock);
}

/*
 * The packet airfair_rtt_egress() timed leaves the qdisc now: its flow's
 * egress half starts here. Only the first such packet after the timing
 * moves it: one marked earlier (its sample given up, still queued) leaves
 * no later than the one timed, so the start stays between that packet's
 * enqueue and its dequeue. Called under the root lock from dequeue, for
 * one packet per flow and round trip.
 */
void airfair_rtt_dequeued(struct airfair_sched *q, u32 hash)
{
	struct airfair_rtt *r = &q->rtt;
	struct airfair_rtt_ent *e;

	if (!r->ents)
		return;
	spin_lock_bh(&r->lock);
	e = airfair_rtt_find(r, hash, false, jiffies);
	if (e && e->ts_queued && e->ts_ns[AIRFAIR_RTT_EGRESS])
		e->ts_ns[AIRFAIR_RTT_EGRESS] = ktime_get_ns();
	if (e)
		e->ts_queued = false;
	spin_unlock_bh(&r->lock);
}

/*
 * The least excess of the timestamp echoes since the last call (*@min_us),
 * and the samples behind it, 0 if none. Under the root lock, once per meter
 * interval.
 */
u32 airfair_rtt_below_take(struct airfair_sched *q, u32 *min_us)
{
	struct airfair_rtt *r = &q->rtt;
	u32 n;

	if (!r->ents)
		return 0;
	spin_lock_bh(&r->lock);
	n = r->below_samples;
	*min_us = r->below_min_us;
	r->below_samples = 0;
	spin_unlock_bh(&r->lock);
	return n;
}

/*
 * Upload data the AP received: its frames and their L3 bytes, a GRO packet
 * counted as the segments it was made of, each with its own headers.
 */
static void airfair_upload_add(struct airfair_rtt_ent *e,
			       const struct sk_buff *skb, u32 hdr, u32 end)
{
	u32 segs = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
	u64 bytes = (u64)end + (u64)(segs - 1) * hdr;

	e->up_frames = min_t(u64, (u64)e->up_frames + segs, U32_MAX);
	e->up_bytes = min_t(u64, e->up_bytes + bytes, U32_MAX);
}

/*
 * A pure ACK from the flow's station: how many of the segments the AP sent
 * it acknowledges (the advance in units of the last segment size sent).
 */
static void airfair_down_ack(struct airfair_rtt_ent *e, u32 ack_seq)
{
	if (e->down_seg && e->down_ack_seq && after(ack_seq, e->down_ack_seq))
		e->down_d_x256 = airfair_delack_update(e->down_d_x256,
						       ack_seq - e->down_ack_seq,
						       e->down_seg);
	if (!e->down_ack_seq || after(ack_seq, e->down_ack_seq))
		e->down_ack_seq = ack_seq;
}

/*
 * The receive hook, from softirq under rcu_read_lock(). The skb is shared with
 * the stack: only read it (skb_header_pointer), and drop our reference.
 *
 * It is a tap (ETH_P_ALL) on the qdisc's device, so it runs before the device's
 * rx_handler: a bridge port (a wlan in br-lan) hands every frame to the bridge
 * there, and a protocol handler bound to the port would see none. Frames for
 * another host's MAC are what the bridge forwards, or delivers to itself when
 * its own MAC is not the port's; without an rx_handler the stack drops them.
 */
static int airfair_rtt_rcv(struct sk_buff *skb, struct net_device *dev,
			   struct packet_type *pt, struct net_device *orig_dev)
{
	struct airfair_rtt *r = pt->af_packet_priv;
	struct airfair_tcp_opts opts;
	struct airfair_rtt_ent *e;
	const struct tcphdr *th;
	struct flow_keys keys;
	struct tcphdr _th;
	u32 hash, hdr, end;

	/* Only what the AP receives for itself or forwards, as the stack does. */
	if (skb->pkt_type == PACKET_LOOPBACK || skb->pkt_type == PACKET_OUTGOING ||
	    (skb->pkt_type == PACKET_OTHERHOST && !rcu_access_pointer(dev->rx_handler)))
		goto out;
	hash = airfair_flow_hash(skb, &keys);
	if (keys.basic.ip_proto != IPPROTO_TCP ||
	    (keys.control.flags & FLOW_DIS_IS_FRAGMENT))
		goto out;
	th = skb_header_pointer(skb, keys.control.thoff, sizeof(_th), &_th);
	if (!th || th->doff < sizeof(*th) / 4)
		goto out;
	airfair_tcp_options(skb, th, keys.control.thoff, &opts);
	hdr = keys.control.thoff + th->doff * 4;
	end = airfair_l3_end(skb, &keys);
	spin_lock(&r->lock);
	e = airfair_rtt_track(r, hash, th, &opts, AIRFAIR_RTT_INGRESS,
			      th->syn && !th->ack, NULL);
	/*
	 * Upload data counts for the flow's station only when that station
	 * sent it: another station cannot charge (or relieve) it by reusing
	 * the flow's addresses and ports.
	 */
	if (e && skb_mac_header_was_set(skb) &&
	    ether_addr_equal(eth_hdr(skb)->h_source, e->sta_addr)) {
		if (end > hdr)
			airfair_upload_add(e, skb, hdr, end);
		else if (th->ack && !th->syn && !th->fin && !th->rst)
			airfair_down_ack(e, ntohl(th->ack_seq));
	}
	spin_unlock(&r->lock);
out:
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

int airfair_rtt_init(struct Qdisc *sch, u32 max_stations)
{
	struct airfair_sched *q = qdisc_priv(sch);
	struct airfair_rtt *r = &q->rtt;
	u32 n = clamp_t(u32, max_stations * AIRFAIR_RTT_PER_STA,
			AIRFAIR_RTT_MIN_ENTS, AIRFAIR_RTT_MAX_ENTS);

	spin_lock_init(&r->lock);
	r->ents = kvcalloc(n, sizeof(*r->ents), GFP_KERNEL);
	if (!r->ents)
		return -ENOMEM;
	r->nr_sets = n / 2;
	r->pt.type = htons(ETH_P_ALL);
	r->pt.dev = qdisc_dev(sch);
	r->pt.func = airfair_rtt_rcv;
	r->pt.af_packet_priv = r;
	r->pt.ignore_outgoing = true;	/* no clone of every packet we send */
	dev_add_pack(&r->pt);
	r->hooked = true;
	return 0;
}

void airfair_rtt_destroy(struct Qdisc *sch)
{
	struct airfair_sched *q = qdisc_priv(sch);
	struct airfair_rtt *r = &q->rtt;

	if (r->hooked) {
		__dev_remove_pack(&r->pt);
		/* Wait for handlers still running before the table goes. */
		synchronize_net();
		r->hooked = false;
	}
	kvfree(r->ents);
	r->ents = NULL;
}
